// SPDX-License-Identifier: Apache-2.0
// YAML events from libyaml's pull parser, with 1-based marks and kubectl's dialect: anchors
// and aliases are refused, tags are ignored.
#include "load/sources.h"

#include <yaml.h>

#include <string>

namespace kpreempt::load {
namespace {

class YamlSource final : public EventSource {
 public:
  explicit YamlSource(std::unique_ptr<ByteReader> in) : m_in(std::move(in)) {
    if (yaml_parser_initialize(&m_parser) == 0) {
      throw std::bad_alloc();
    }
    if (m_in->from_memory()) {
      // Parsing straight from the buffer saves a copy.
      std::string_view w = m_in->window();
      yaml_parser_set_input_string(&m_parser, reinterpret_cast<const unsigned char*>(w.data()),
                                   w.size());
    } else {
      yaml_parser_set_input(&m_parser, &YamlSource::read, m_in.get());
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
    try {
      *size_read = static_cast<ByteReader*>(data)->read(reinterpret_cast<char*>(buffer), size);
      return 1;
    } catch (const InputError&) {
      return 0;  // libyaml reports "input error"
    }
  }

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
};

void YamlSource::fail_syntax() const {
  std::string problem = m_parser.problem != nullptr ? m_parser.problem : "invalid YAML";
  if (m_parser.error == YAML_READER_ERROR || m_parser.error == YAML_MEMORY_ERROR) {
    throw InputError(SourceLoc{m_in->name(), 0, 0}, problem);
  }
  fail(m_parser.problem_mark, problem);
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
