// SPDX-License-Identifier: Apache-2.0
// JSON events from simdjson, which parses about twice as fast as RapidJSON but only whole
// documents in memory. A top-level array (a part of a split List, a list of objects) is read in
// chunks of its items, cut at the commas between items laid out as pretty-printers lay them out;
// the parse of each chunk proves the cut sits between two items. Events are made from simdjson's
// structural indexes and the input bytes, with marks, texts and limits as the RapidJSON source
// makes them. Wherever simdjson refuses a chunk or could read a token otherwise (errors, huge
// numbers, very long tokens, deep nesting), the RapidJSON source takes over from the chunk's
// start and the events already handed out are dropped from it, so events and messages are the
// same as RapidJSON's alone.
#include "load/line_breaks.h"
#include "load/sources.h"

#include <simdjson.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include <algorithm>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <utility>

namespace kpreempt::load {
namespace {

// Without a cut so far the whole input is one chunk; past this RapidJSON streams it instead.
constexpr std::size_t k_max_chunk = std::size_t{32} << 20;
constexpr int k_max_depth = 1000;  // the RapidJSON source's, which reports it
// The RapidJSON source refuses a token (with what follows it up to the next) longer than
// this, depending on where its reads are cut: past it, it decides.
constexpr std::uint64_t k_max_token = std::uint64_t{8} << 20;

bool in_number(char c) {
  return (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E';
}

// Whether RapidJSON takes a number simdjson took: it refuses some of over 308 integer digits
// or with an exponent over 308 ("number too big").
bool rapidjson_takes(std::string_view number) {
  std::size_t e = number.find_first_of("eE");
  std::size_t point = number.find('.');
  if (std::min(std::min(e, point), number.size()) > 300) {
    return false;
  }
  if (e == std::string_view::npos || number[e + 1] == '-') {
    return true;
  }
  int exp = 0;
  for (std::size_t i = e + 1; i < number.size(); ++i) {
    if (number[i] >= '0' && number[i] <= '9') {
      exp = std::min(exp * 10 + (number[i] - '0'), 100000);
    }
  }
  return exp <= 308;
}

int hex4(std::string_view s) {
  int v = 0;
  for (char c : s.substr(0, 4)) {
    int d = c >= '0' && c <= '9'   ? c - '0'
            : c >= 'a' && c <= 'f' ? c - 'a' + 10
            : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                   : -1;
    if (d < 0) {
      return -1;
    }
    v = v * 16 + d;
  }
  return s.size() < 4 ? -1 : v;
}

void put_utf8(std::string& out, unsigned cp) {
  if (cp <= 0x7F) {
    out += static_cast<char>(cp);
  } else if (cp <= 0x7FF) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp <= 0xFFFF) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

// Whether [p, end) may hold a \u escape, where surrogates are read by rules that differ
// between RapidJSON and simdjson releases; simdjson's parse of the chunk refused any other bad
// escape, as RapidJSON does. Managed fields' keys are full of \" escapes, so a backslash alone
// says little. Looks one byte past `end`, which is in the buffer.
bool has_unicode_escape(const char* p, const char* end) {
#if defined(__SSE2__)
  const __m128i backslash = _mm_set1_epi8('\\');
  const __m128i u = _mm_set1_epi8('u');
  for (; end - p >= 16; p += 16) {
    const __m128i here = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    const __m128i after = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 1));
    if (_mm_movemask_epi8(
            _mm_and_si128(_mm_cmpeq_epi8(here, backslash), _mm_cmpeq_epi8(after, u))) != 0) {
      return true;
    }
  }
#endif
  for (; p < end; ++p) {
    if (p[0] == '\\' && p[1] == 'u') {
      return true;
    }
  }
  return false;
}

// A string's escapes undone as RapidJSON undoes them (a lone low surrogate is encoded as it
// is). False on anything it would refuse.
bool unescape(std::string_view raw, std::string& out) {
  out.clear();
  for (std::size_t i = 0; i < raw.size(); ++i) {
    char c = raw[i];
    if (c != '\\') {
      out += c;
      continue;
    }
    if (++i == raw.size()) {
      return false;
    }
    switch (raw[i]) {
      case '"':
        out += '"';
        break;
      case '\\':
        out += '\\';
        break;
      case '/':
        out += '/';
        break;
      case 'b':
        out += '\b';
        break;
      case 'f':
        out += '\f';
        break;
      case 'n':
        out += '\n';
        break;
      case 'r':
        out += '\r';
        break;
      case 't':
        out += '\t';
        break;
      case 'u': {
        int cp = hex4(raw.substr(i + 1));
        if (cp < 0) {
          return false;
        }
        i += 4;
        if (cp >= 0xD800 && cp <= 0xDBFF) {
          if (raw.substr(i + 1, 2) != "\\u") {
            return false;
          }
          int low = hex4(raw.substr(i + 3));
          if (low < 0xDC00 || low > 0xDFFF) {
            return false;
          }
          i += 6;
          cp = (((cp - 0xD800) << 10) | (low - 0xDC00)) + 0x10000;
        }
        put_utf8(out, static_cast<unsigned>(cp));
        break;
      }
      default:
        return false;
    }
  }
  return true;
}

class SimdJsonSource final : public EventSource {
 public:
  SimdJsonSource(std::unique_ptr<ByteReader> in, std::size_t chunk_bytes)
      : m_name(in->name()), m_in(std::move(in)), m_chunk_bytes(chunk_bytes) {}

  const Event& next() override;
  void skip_value_rest() override;
  const std::string& file_name() const override { return m_name; }
  bool fell_back() const { return m_fallback != nullptr; }

 private:
  enum class Phase { start, tokens, document_end, stream_end };

  bool read_more();
  bool load_chunk();
  std::size_t find_cut(std::size_t from) const;
  void learn_layout();
  bool token_ok(std::uint32_t pos, char c);
  const Event& token(std::uint32_t pos, char c);
  const Event& string_at(std::uint32_t pos);
  const Event& fall_back() {
    start_fallback();
    return m_fallback->next();
  }
  void start_fallback();
  bool skipped_ok(std::uint32_t pos, char c);
  bool skip_plain_value();
  bool number_ok(std::uint32_t pos) const;
  std::string_view string_raw(std::uint32_t pos, std::uint32_t next) const;
  const Event& emit(EventType type, std::uint64_t offset, std::string_view text = {},
                    ScalarStyle style = ScalarStyle::plain);
  Mark mark_at(std::uint64_t offset);
  std::uint32_t end_of_token() const {
    return m_at < m_count ? m_idx[m_at] : static_cast<std::uint32_t>(m_chunk_len);
  }

  std::string m_name;
  std::unique_ptr<ByteReader> m_in;
  std::size_t m_chunk_bytes;
  std::unique_ptr<EventSource> m_fallback;
  std::uint64_t m_drop = 0;  // events of the fallback already handed out or skipped

  // Input bytes from m_base on (offsets counted after a byte order mark), then padding.
  std::unique_ptr<char[]> m_buf;  // not cleared: only bytes written are read
  std::size_t m_capacity = 0;
  std::size_t m_len = 0;
  std::uint64_t m_base = 0;
  bool m_eof = false;
  bool m_first_window = true;
  std::string m_gap;  // the text between two items, ending with the next item's '{'

  // The chunk being handed out: its first byte is m_buf[0]; after the first chunk that is the
  // comma before its first item, parsed as '[' (standing for the array's own '[').
  simdjson::dom::parser m_parser;
  const std::uint32_t* m_idx = nullptr;
  std::size_t m_at = 0, m_stop = 0, m_count = 0, m_chunk_len = 0;
  std::size_t m_cut = 0;  // the comma ending the chunk, parsed as ']'; 0 for the last chunk
  bool m_later_chunk = false;
  std::uint64_t m_emitted = 0;  // events of this chunk handed out
  JsonResume m_chunk_at;

  Phase m_phase = Phase::start;
  int m_depth = 0;
  std::uint64_t m_last_token = 0;  // start of the last token met
  std::uint64_t m_value_end = 0;   // end of the last token handed out
  std::uint64_t m_counted = 0;     // line breaks before this offset are counted
  std::uint32_t m_line = 1;
  std::uint64_t m_line_start = 0;
  std::string m_text;
  Event m_out;
};

// Appends the next window; false at the end of the input or on a read error, which the
// RapidJSON source then meets and reports in its place.
bool SimdJsonSource::read_more() {
  std::string_view w;
  try {
    w = m_in->window();
  } catch (const InputError&) {
    return false;
  }
  if (w.empty()) {
    m_eof = true;
    return false;
  }
  m_in->advance(w.size());
  if (std::exchange(m_first_window, false) && w.starts_with("\xEF\xBB\xBF")) {
    w.remove_prefix(3);
  }
  std::size_t need = m_len + w.size() + simdjson::SIMDJSON_PADDING;
  if (need > m_capacity) {
    m_capacity = std::max(need, 2 * m_capacity);
    auto grown = std::make_unique_for_overwrite<char[]>(m_capacity);
    if (m_len > 0) {  // the first window has no buffer to copy from, not even a null one
      std::memcpy(grown.get(), m_buf.get(), m_len);
    }
    m_buf = std::move(grown);
  }
  std::memcpy(m_buf.get() + m_len, w.data(), w.size());
  m_len += w.size();
  std::memset(m_buf.get() + m_len, 0, simdjson::SIMDJSON_PADDING);
  return true;
}

// Items are cut where a pretty-printer puts them: `[`, a line break and the first item's `{`
// at the start of its line after some spaces; between items `},` and `{` on lines of their own
// at that indentation.
void SimdJsonSource::learn_layout() {
  std::string_view text(m_buf.get(), m_len);
  std::size_t open = text.find_first_not_of(" \t\r\n");
  if (open == std::string_view::npos || text[open] != '[') {
    return;
  }
  std::size_t item = text.find_first_not_of(" \t\r\n", open + 1);
  if (item == std::string_view::npos || text[item] != '{') {
    return;
  }
  std::size_t line = text.rfind('\n', item);
  if (line == std::string_view::npos || line < open ||
      text.substr(line + 1, item - line - 1).find_first_not_of(' ') != std::string_view::npos) {
    return;
  }
  std::string indent(item - line - 1, ' ');
  m_gap = "\n" + indent + "},\n" + indent + "{";
}

// The comma of the last item boundary in m_buf[from, m_len), or 0. Looked for backwards from
// the gap's last byte, a `{`: a search comparing the gap at every position costs a call a byte.
std::size_t SimdJsonSource::find_cut(std::size_t from) const {
  if (m_gap.empty() || m_len < from + m_gap.size()) {
    return 0;
  }
  const char* base = m_buf.get();
  const char* lowest = base + from + m_gap.size() - 1;  // where the earliest gap would end
  const char* end = base + m_len;
  while (end > lowest) {
    const auto* last = static_cast<const char*>(memrchr(lowest, m_gap.back(), end - lowest));
    if (last == nullptr) {
      return 0;
    }
    const char* start = last + 1 - m_gap.size();
    if (std::memcmp(start, m_gap.data(), m_gap.size()) == 0) {
      return static_cast<std::size_t>(start - base) + m_gap.find(',');
    }
    end = last;
  }
  return 0;
}

// Parses the next chunk; false when RapidJSON must take over from its start.
bool SimdJsonSource::load_chunk() {
  if (m_cut != 0) {
    // Drop the chunk handed out; its closing comma starts the next.
    mark_at(m_base + m_cut);
    m_buf[m_cut] = ',';
    std::memmove(m_buf.get(), m_buf.get() + m_cut, m_len - m_cut + simdjson::SIMDJSON_PADDING);
    m_len -= m_cut;
    m_base += m_cut;
    m_buf[0] = '[';
    m_later_chunk = true;
  }
  m_chunk_at = JsonResume{m_base, m_line_start, m_line};
  m_emitted = 0;
  m_cut = 0;
  std::size_t searched = 1;
  for (;;) {
    if (!m_eof && m_len < m_chunk_bytes + 1) {
      if (!read_more() && !m_eof) {
        return false;  // a read error, which RapidJSON reports
      }
      continue;
    }
    if (m_gap.empty() && !m_later_chunk) {
      learn_layout();
    }
    m_cut = m_eof ? 0 : find_cut(searched);
    if (m_eof || m_cut != 0) {
      break;
    }
    if (m_len > k_max_chunk) {
      return false;
    }
    searched = m_len >= m_gap.size() ? m_len - m_gap.size() + 1 : 1;
    if (!read_more() && !m_eof) {
      return false;  // read error
    }
  }
  m_chunk_len = m_cut != 0 ? m_cut + 1 : m_len;
  if (m_chunk_len > k_max_chunk || m_chunk_len == 0) {
    m_cut = 0;
    return false;
  }
  if (m_cut != 0) {
    m_buf[m_cut] = ']';
  }
  simdjson::error_code error =
      m_parser.parse(reinterpret_cast<const std::uint8_t*>(m_buf.get()), m_chunk_len, false)
          .error();
  if (error != simdjson::SUCCESS) {
    return false;
  }
  m_idx = m_parser.implementation->structural_indexes.get();
  m_count = m_parser.implementation->n_structural_indexes;
  m_at = m_later_chunk ? 1 : 0;  // past the '[' standing in for the array's
  m_stop = m_cut != 0 ? m_count - 1 : m_count;
  return true;
}

// Counts line breaks from where the last count stopped; tokens hold none, so after a token the
// count goes on from its end, and mostly only the blanks between tokens are looked at.
Mark SimdJsonSource::mark_at(std::uint64_t offset) {
  const char* from = m_buf.get() + (m_counted - m_base);
  const char* end = m_buf.get() + (offset - m_base);
  if (from < end) {
    if (const std::size_t breaks = count_line_breaks(from, end); breaks > 0) {
      m_line += static_cast<std::uint32_t>(breaks);
      const auto* last = static_cast<const char*>(memrchr(from, '\n', end - from));
      m_line_start = m_base + static_cast<std::uint64_t>(last + 1 - m_buf.get());
    }
  }
  m_counted = offset;
  return Mark{m_line, static_cast<std::uint32_t>(offset - m_line_start + 1)};
}

const Event& SimdJsonSource::emit(EventType type, std::uint64_t offset, std::string_view text,
                                  ScalarStyle style) {
  ++m_emitted;
  m_out = Event{type, mark_at(offset), text, style};
  m_counted = std::max(m_counted, m_value_end);
  return m_out;
}

// RapidJSON reads the rest from the chunk's start; what this source handed out of the chunk
// is dropped from its events, with the '[' and the document start of a later chunk.
void SimdJsonSource::start_fallback() {
  if (m_cut != 0) {
    m_buf[m_cut] = ',';
  }
  m_in->unread(std::string(m_buf.get(), m_len));
  m_buf.reset();
  m_capacity = 0;
  m_fallback = make_rapidjson_source(std::move(m_in), &m_chunk_at);
  m_drop = m_emitted + (m_later_chunk ? 2 : 0);
  while (m_drop > 0) {
    m_fallback->next();
    --m_drop;
  }
}

// Checks a token before it is handed out or skipped: what RapidJSON would refuse or might
// read otherwise.
bool SimdJsonSource::token_ok(std::uint32_t pos, char c) {
  std::uint64_t offset = m_base + pos;
  if (offset - m_last_token > k_max_token) {
    return false;
  }
  m_last_token = offset;
  if ((c == '{' || c == '[') && m_depth >= k_max_depth) {
    return false;
  }
  return true;
}

// The text between the quotes of the string at `pos`, which ends before `next`, the next
// structural byte (strings hold no raw line breaks or other blanks after their closing quote).
std::string_view SimdJsonSource::string_raw(std::uint32_t pos, std::uint32_t next) const {
  while (next > pos && m_buf[--next] != '"') {
  }
  return {m_buf.get() + pos + 1, next - pos - 1};
}

const Event& SimdJsonSource::string_at(std::uint32_t pos) {
  std::string_view raw = string_raw(pos, end_of_token());
  m_value_end = m_base + pos + raw.size() + 2;
  if (raw.find('\\') == std::string_view::npos) {
    return emit(EventType::scalar, m_base + pos, raw, ScalarStyle::quoted);
  }
  if (!unescape(raw, m_text)) {
    return fall_back();
  }
  return emit(EventType::scalar, m_base + pos, m_text, ScalarStyle::quoted);
}

const Event& SimdJsonSource::token(std::uint32_t pos, char c) {
  std::uint64_t offset = m_base + pos;
  switch (c) {
    case '{':
    case '[':
      ++m_depth;
      m_value_end = offset + 1;
      return emit(c == '{' ? EventType::map_start : EventType::seq_start, offset);
    case '}':
    case ']':
      --m_depth;
      m_value_end = offset + 1;
      return emit(c == '}' ? EventType::map_end : EventType::seq_end, offset);
    case '"':
      return string_at(pos);
    case 't':
    case 'f':
    case 'n': {
      std::string_view text = c == 't' ? "true" : c == 'f' ? "false" : "null";
      m_value_end = offset + text.size();
      return emit(EventType::scalar, offset, text);
    }
    default: {
      std::uint32_t end = pos;
      while (in_number(m_buf[end])) {
        ++end;
      }
      std::string_view text(m_buf.get() + pos, end - pos);
      if (!rapidjson_takes(text)) {
        return fall_back();
      }
      m_value_end = m_base + end;
      return emit(EventType::scalar, offset, text);
    }
  }
}

const Event& SimdJsonSource::next() {
  if (m_fallback != nullptr) {
    return m_fallback->next();
  }
  for (;;) {
    switch (m_phase) {
      case Phase::start:
        if (!load_chunk() || m_at >= m_stop || !token_ok(m_idx[m_at], ' ')) {
          return fall_back();
        }
        m_phase = Phase::tokens;
        return emit(EventType::document_start, m_base + m_idx[m_at]);
      case Phase::tokens:
        while (m_at < m_stop) {
          std::uint32_t pos = m_idx[m_at];
          char c = m_buf[pos];
          if (!token_ok(pos, c)) {
            return fall_back();
          }
          ++m_at;
          if (c != ',' && c != ':') {
            return token(pos, c);
          }
        }
        if (m_cut != 0) {
          if (!load_chunk()) {
            return fall_back();
          }
          continue;
        }
        m_phase = Phase::document_end;
        return emit(EventType::document_end, m_value_end);
      case Phase::document_end:
        if (m_base + m_len - m_last_token > k_max_token) {
          return fall_back();
        }
        m_phase = Phase::stream_end;
        return emit(EventType::stream_end, m_base + m_len);
      case Phase::stream_end:
        return m_out;
    }
  }
}

// Brackets only: no text, no marks.
void SimdJsonSource::skip_value_rest() {
  if (m_fallback == nullptr && m_phase == Phase::tokens && skip_plain_value()) {
    return;
  }
  int depth = 1;
  while (depth > 0 && m_fallback == nullptr && m_phase == Phase::tokens) {
    if (m_at == m_stop) {
      if (m_cut == 0) {
        return;  // not reached: a chunk parsed holds whole values
      }
      if (!load_chunk()) {
        start_fallback();
        break;
      }
      continue;
    }
    std::uint32_t pos = m_idx[m_at];
    char c = m_buf[pos];
    if (!token_ok(pos, c) || !skipped_ok(pos, c)) {
      start_fallback();
      break;
    }
    ++m_at;
    if (c == ',' || c == ':') {
      continue;
    }
    ++m_emitted;
    if (c == '{' || c == '[') {
      ++m_depth;
      ++depth;
    } else if (c == '}' || c == ']') {
      --m_depth;
      --depth;
      m_value_end = m_base + pos + 1;
    }
  }
  if (depth > 0 && m_fallback != nullptr) {
    skip_open_collections(*m_fallback, depth);
  }
}

// The common case of skip_value_rest(): the value ends in this chunk and holds no \u escape,
// so only its brackets, token lengths and numbers need a look, and one search for \u stands for
// a check of each string. False, with nothing changed, otherwise.
bool SimdJsonSource::skip_plain_value() {
  int depth = 1;
  std::uint64_t last_token = m_last_token;
  std::uint64_t events = 0;
  std::size_t at = m_at;
  for (; at < m_stop && depth > 0; ++at) {
    const std::uint32_t pos = m_idx[at];
    const char c = m_buf[pos];
    if (m_base + pos - last_token > k_max_token) {
      return false;
    }
    last_token = m_base + pos;
    if (c == ',' || c == ':') {
      continue;
    }
    ++events;
    if (c == '{' || c == '[') {
      if (m_depth + depth - 1 >= k_max_depth) {
        return false;
      }
      ++depth;
    } else if (c == '}' || c == ']') {
      --depth;
    } else if ((c == '-' || (c >= '0' && c <= '9')) && !number_ok(pos)) {
      return false;
    }
  }
  if (depth > 0) {
    return false;
  }
  const std::uint32_t first = m_idx[m_at];
  const std::uint32_t last = m_idx[at - 1];
  if (has_unicode_escape(m_buf.get() + first, m_buf.get() + last)) {
    return false;
  }
  m_at = at;
  m_last_token = last_token;
  m_emitted += events;
  m_value_end = m_base + last + 1;
  --m_depth;  // the value's own opening bracket counted it
  return true;
}

bool SimdJsonSource::number_ok(std::uint32_t pos) const {
  std::uint32_t end = pos;
  while (in_number(m_buf[end])) {
    ++end;
  }
  return rapidjson_takes(std::string_view(m_buf.get() + pos, end - pos));
}

// A skipped scalar RapidJSON would refuse: it reads what it skips.
bool SimdJsonSource::skipped_ok(std::uint32_t pos, char c) {
  if (c == '"') {
    std::uint32_t next =
        m_at + 1 < m_count ? m_idx[m_at + 1] : static_cast<std::uint32_t>(m_chunk_len);
    std::string_view raw = string_raw(pos, next);
    return raw.find('\\') == std::string_view::npos || unescape(raw, m_text);
  }
  if (c == '-' || (c >= '0' && c <= '9')) {
    return number_ok(pos);
  }
  return true;
}

}  // namespace

std::unique_ptr<EventSource> make_json_source(std::unique_ptr<ByteReader> in,
                                              std::size_t chunk_bytes) {
  return std::make_unique<SimdJsonSource>(std::move(in), chunk_bytes);
}

bool json_source_fell_back(const EventSource& src) {
  const auto* simd = dynamic_cast<const SimdJsonSource*>(&src);
  return simd == nullptr || simd->fell_back();
}

}  // namespace kpreempt::load
