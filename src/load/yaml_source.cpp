// SPDX-License-Identifier: Apache-2.0
// YAML events from libyaml's pull parser, with 1-based marks and kubectl's dialect: anchors
// and aliases are refused, tags are ignored.
#include "load/sources.h"

#include <fmt/format.h>
#include <yaml.h>

#include <optional>
#include <string>

namespace kpreempt::load {
namespace {

// The last bytes handed to libyaml with the line they start on, to turn the byte offset of an
// encoding error into a line and column. A buffer parsed in place is looked at directly.
class RecentBytes {
 public:
  void assign(std::string_view whole) { m_whole = whole; }
  void add(const char* data, std::size_t n) {
    m_kept.append(data, n);
    if (m_kept.size() > 2 * k_keep) {
      drop(m_kept.size() - k_keep);
    }
  }
  // Where byte `offset` of the input is; 0:0 when it is no longer kept.
  Mark mark_at(std::uint64_t offset) const {
    std::string_view bytes = m_whole.data() != nullptr ? m_whole : std::string_view(m_kept);
    if (offset < m_base || offset - m_base > bytes.size()) {
      return Mark{0, 0};
    }
    std::uint32_t line = m_line;
    std::uint64_t line_start = m_line_start;
    for (std::uint64_t i = m_base; i < offset; ++i) {
      if (bytes[i - m_base] == '\n') {
        ++line;
        line_start = i + 1;
      }
    }
    return Mark{line, static_cast<std::uint32_t>(offset - line_start + 1)};
  }

 private:
  static constexpr std::size_t k_keep = std::size_t{1} << 16;

  void drop(std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) {
      if (m_kept[i] == '\n') {
        ++m_line;
        m_line_start = m_base + i + 1;
      }
    }
    m_kept.erase(0, n);
    m_base += n;
  }

  std::string_view m_whole;
  std::string m_kept;
  std::uint64_t m_base = 0;  // input offset of m_kept's first byte
  std::uint32_t m_line = 1;
  std::uint64_t m_line_start = 0;
};

class YamlSource final : public EventSource {
 public:
  explicit YamlSource(std::unique_ptr<ByteReader> in) : m_in(std::move(in)) {
    refuse_utf16(m_in->window());
    if (yaml_parser_initialize(&m_parser) == 0) {
      throw std::bad_alloc();
    }
    if (m_in->from_memory()) {
      // Parsing straight from the buffer saves a copy.
      std::string_view w = m_in->window();
      m_recent.assign(w);
      yaml_parser_set_input_string(&m_parser, reinterpret_cast<const unsigned char*>(w.data()),
                                   w.size());
    } else {
      yaml_parser_set_input(&m_parser, &YamlSource::read, this);
    }
  }
  ~YamlSource() override {
    release_event();
    yaml_parser_delete(&m_parser);
  }
  YamlSource(const YamlSource&) = delete;
  YamlSource& operator=(const YamlSource&) = delete;

  const Event& next() override;
  const std::string& file_name() const override { return m_in->name(); }

 private:
  static int read(void* data, unsigned char* buffer, size_t size, size_t* size_read) {
    auto* self = static_cast<YamlSource*>(data);
    try {
      *size_read = self->m_in->read(reinterpret_cast<char*>(buffer), size);
      self->m_recent.add(reinterpret_cast<const char*>(buffer), *size_read);
      self->m_read_since_event += *size_read;
      if (self->m_read_since_event > k_max_event_input) {
        // libyaml keeps a value whole until it ends: an endless one would fill the memory.
        throw InputError(
            SourceLoc{self->m_in->name(), self->m_out.mark.line, self->m_out.mark.column},
            "a value runs on for more than 64 MiB of input; the rest is not read");
      }
      return 1;
    } catch (const InputError& e) {
      self->m_read_error = e;
      return 0;  // libyaml reports "input error"
    }
  }

  // libyaml would read UTF-16 (with a byte order mark) and report positions in characters
  // nobody can find again; kubectl never writes it, an editor on Windows might. Text starts
  // with a printable character, so NUL bytes among the first four tell the encoding apart
  // from binary data (/dev/zero, an image, a compressed file).
  void refuse_utf16(std::string_view w) const {
    const std::string_view head = w.substr(0, 4);
    const auto nul = [&](std::size_t i) { return i < head.size() && head[i] == '\0'; };
    const char* what = nullptr;
    if (head.starts_with(std::string_view("\xFF\xFE\0\0", 4)) ||
        head.starts_with(std::string_view("\0\0\xFE\xFF", 4)) ||
        (head.size() == 4 && nul(0) + nul(1) + nul(2) + nul(3) == 3 && (nul(0) != nul(3)))) {
      what = "UTF-32 is not supported, convert to UTF-8";
    } else if (head.size() == 4 && nul(0) && nul(1) && nul(2) && nul(3)) {
      what = "this is binary data (NUL bytes), not YAML or JSON text";
    } else if (w.starts_with("\xFF\xFE") || w.starts_with("\xFE\xFF") || nul(0) || nul(1)) {
      what = "UTF-16 is not supported, convert to UTF-8";
    }
    if (what != nullptr) {
      throw InputError(SourceLoc{m_in->name(), 1, 1}, what);
    }
  }
  [[noreturn]] void fail_reader() const;
  std::string tab_hint() const;

  void release_event() {
    if (m_have_event) {
      yaml_event_delete(&m_event);
      m_have_event = false;
    }
  }
  [[noreturn]] void fail(const yaml_mark_t& mark, const std::string& message) const {
    throw InputError(SourceLoc{m_in->name(), static_cast<std::uint32_t>(mark.line + 1),
                               static_cast<std::uint32_t>(mark.column + 1)},
                     message);
  }
  [[noreturn]] void fail_syntax() const;
  void check_anchor(const yaml_char_t* anchor) const {
    if (anchor != nullptr) {
      fail(m_event.start_mark, "YAML anchors are not supported");
    }
  }
  bool translate();

  std::unique_ptr<ByteReader> m_in;
  yaml_parser_t m_parser{};
  yaml_event_t m_event{};
  bool m_have_event = false;
  bool m_done = false;
  Event m_out;
  RecentBytes m_recent;
  std::optional<InputError> m_read_error;
  // Input read while looking for the next event; values are limited far below this.
  static constexpr std::size_t k_max_event_input = std::size_t{64} << 20;
  std::size_t m_read_since_event = 0;
};

// libyaml reports a bad byte as an offset only: the line and column come from the bytes kept.
void YamlSource::fail_reader() const {
  if (m_read_error) {
    throw *m_read_error;
  }
  std::string problem = m_parser.problem != nullptr ? m_parser.problem : "cannot read";
  if (problem.find("UTF-8") != std::string::npos ||
      problem.find("control characters") != std::string::npos) {
    if (m_parser.problem_value >= 0) {
      problem += fmt::format(" (byte 0x{:02X})", static_cast<unsigned>(m_parser.problem_value));
    }
    problem += "; the file must be UTF-8 text";
  }
  Mark m = m_recent.mark_at(m_parser.problem_offset);
  throw InputError(SourceLoc{m_in->name(), m.line, m.column}, problem);
}

// A tab where indentation is expected is the most common hand-editing mistake. The scanner
// stops on the character it cannot start a token with.
std::string YamlSource::tab_hint() const {
  const yaml_char_t* at = m_parser.buffer.pointer;
  if (m_parser.error == YAML_SCANNER_ERROR && at != nullptr && at < m_parser.buffer.last &&
      *at == '\t') {
    return "; YAML does not allow tabs for indentation, use spaces";
  }
  return "";
}

void YamlSource::fail_syntax() const {
  if (m_parser.error == YAML_MEMORY_ERROR) {
    throw InputError(SourceLoc{m_in->name(), 0, 0}, "out of memory while reading YAML");
  }
  if (m_parser.error == YAML_READER_ERROR) {
    fail_reader();
  }
  std::string problem = m_parser.problem != nullptr ? m_parser.problem : "invalid YAML";
  if (problem == "mapping values are not allowed in this context" &&
      m_parser.problem_mark.column > 1024) {
    // libyaml takes a plain key only up to 1024 characters (YAML 1.1's implicit key limit);
    // no Kubernetes key comes near it (label and annotation keys stop at 317).
    problem += " (a key longer than 1024 characters, YAML's limit for a key without '?')";
  }
  fail(m_parser.problem_mark, problem + tab_hint());
}

// Fills m_out from m_event; false for events callers never see (stream start).
bool YamlSource::translate() {
  m_out.mark = Mark{static_cast<std::uint32_t>(m_event.start_mark.line + 1),
                    static_cast<std::uint32_t>(m_event.start_mark.column + 1)};
  m_out.text = {};
  m_out.style = ScalarStyle::plain;
  switch (m_event.type) {
    case YAML_STREAM_START_EVENT:
    case YAML_NO_EVENT:
      return false;
    case YAML_STREAM_END_EVENT:
      m_out.type = EventType::stream_end;
      m_done = true;
      return true;
    case YAML_DOCUMENT_START_EVENT:
      m_out.type = EventType::document_start;
      return true;
    case YAML_DOCUMENT_END_EVENT:
      m_out.type = EventType::document_end;
      return true;
    case YAML_ALIAS_EVENT:
      fail(m_event.start_mark, "YAML aliases are not supported");
    case YAML_SCALAR_EVENT:
      check_anchor(m_event.data.scalar.anchor);
      m_out.type = EventType::scalar;
      m_out.text = {reinterpret_cast<const char*>(m_event.data.scalar.value),
                    m_event.data.scalar.length};
      m_out.style = m_event.data.scalar.style == YAML_PLAIN_SCALAR_STYLE ? ScalarStyle::plain
                                                                         : ScalarStyle::quoted;
      return true;
    case YAML_SEQUENCE_START_EVENT:
      check_anchor(m_event.data.sequence_start.anchor);
      m_out.type = EventType::seq_start;
      return true;
    case YAML_SEQUENCE_END_EVENT:
      m_out.type = EventType::seq_end;
      return true;
    case YAML_MAPPING_START_EVENT:
      check_anchor(m_event.data.mapping_start.anchor);
      m_out.type = EventType::map_start;
      return true;
    case YAML_MAPPING_END_EVENT:
      m_out.type = EventType::map_end;
      return true;
  }
  return false;
}

const Event& YamlSource::next() {
  if (m_done) {
    m_out = Event{};
    return m_out;
  }
  m_read_since_event = 0;
  do {
    release_event();
    if (yaml_parser_parse(&m_parser, &m_event) == 0) {
      m_done = true;
      fail_syntax();
    }
    m_have_event = true;
  } while (!translate());
  return m_out;
}

}  // namespace

std::unique_ptr<EventSource> make_yaml_source(std::unique_ptr<ByteReader> in) {
  return std::make_unique<YamlSource>(std::move(in));
}

}  // namespace kpreempt::load
