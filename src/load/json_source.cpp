// SPDX-License-Identifier: Apache-2.0
// JSON events from a small pull lexer. RapidJSON's pull API (IterativeParseNext) is newer than
// the packaged 1.1.0, so the grammar is walked here and RapidJSON supplies the error texts.
// Several concatenated top-level values are read as several documents.
#include "load/sources.h"

#include <rapidjson/error/en.h>

#include <cstring>
#include <string>
#include <vector>

namespace kpreempt::load {
namespace {

using rapidjson::ParseErrorCode;

enum class Step { first, need_value, after_value };

struct Frame {
  bool object = false;
  Step step = Step::first;
};

class JsonSource final : public EventSource {
 public:
  explicit JsonSource(std::unique_ptr<ByteReader> in) : m_in(std::move(in)) {
    std::string_view w = m_in->window();
    if (w.substr(0, 3) == "\xEF\xBB\xBF") {
      m_in->advance(3);
      m_line_start = 3;
    }
  }

  const Event& next() override;
  void skip_value_rest() override;
  const std::string& file_name() const override { return m_in->name(); }

 private:
  [[noreturn]] void fail(ParseErrorCode code) const { fail(code, m_in->offset()); }
  [[noreturn]] void fail(ParseErrorCode code, std::uint64_t offset) const;
  Mark here() const {
    return Mark{m_line, static_cast<std::uint32_t>(m_in->offset() - m_line_start + 1)};
  }
  void skip_blanks();
  void expect(char c, ParseErrorCode code) {
    skip_blanks();
    if (m_in->peek() != c) {
      fail(code);
    }
    m_in->advance(1);
  }
  const Event& emit(EventType type, Mark mark) {
    m_out = Event{type, mark, {}, ScalarStyle::plain};
    return m_out;
  }
  const Event& emit_scalar(Mark mark, ScalarStyle style) {
    m_out = Event{EventType::scalar, mark, m_text, style};
    return m_out;
  }
  const Event& top_level();
  const Event& in_object(Frame& f);
  const Event& in_array(Frame& f);
  const Event& value();
  const Event& close(EventType type);
  void read_string();
  void read_escape();
  void read_number();
  void read_literal(std::string_view word);
  unsigned read_hex4();
  void append_utf8(unsigned cp);
  int take() {
    int c = m_in->peek();
    if (c >= 0) {
      m_in->advance(1);
    }
    return c;
  }

  std::unique_ptr<ByteReader> m_in;
  std::vector<Frame> m_stack;
  bool m_in_document = false;
  bool m_root_read = false;
  bool m_done = false;
  std::uint32_t m_line = 1;
  std::uint64_t m_line_start = 0;  // offset of the first byte of the current line
  std::uint64_t m_escape = 0;      // offset of the backslash being decoded, for messages
  std::string m_text;
  Event m_out;
};

void JsonSource::fail(ParseErrorCode code, std::uint64_t offset) const {
  // RapidJSON's texts are sentences; diagnostics are lower-case without a final period.
  std::string text = rapidjson::GetParseError_En(code);
  if (!text.empty() && text.back() == '.') {
    text.pop_back();
  }
  if (!text.empty() && text[0] >= 'A' && text[0] <= 'Z') {
    text[0] = static_cast<char>(text[0] - 'A' + 'a');
  }
  auto column = static_cast<std::uint32_t>(offset - m_line_start + 1);
  throw InputError(SourceLoc{m_in->name(), m_line, column}, text);
}

void JsonSource::skip_blanks() {
  for (;;) {
    std::string_view w = m_in->window();
    if (w.empty()) {
      return;
    }
    std::size_t i = 0;
    for (; i < w.size(); ++i) {
      char c = w[i];
      if (c == '\n') {
        ++m_line;
        m_line_start = m_in->offset() + i + 1;
      } else if (c != ' ' && c != '\t' && c != '\r') {
        break;
      }
    }
    m_in->advance(i);
    if (i < w.size()) {
      return;
    }
  }
}

const Event& JsonSource::next() {
  if (m_done) {
    return emit(EventType::stream_end, here());
  }
  if (m_stack.empty()) {
    return top_level();
  }
  Frame& f = m_stack.back();
  return f.object ? in_object(f) : in_array(f);
}

const Event& JsonSource::top_level() {
  if (!m_in_document) {
    skip_blanks();
    if (m_in->peek() < 0) {
      m_done = true;
      return emit(EventType::stream_end, here());
    }
    m_in_document = true;
    m_root_read = false;
    return emit(EventType::document_start, here());
  }
  if (!m_root_read) {
    m_root_read = true;
    skip_blanks();
    return value();
  }
  m_in_document = false;
  return emit(EventType::document_end, here());
}

const Event& JsonSource::in_object(Frame& f) {
  skip_blanks();
  Mark mark = here();
  if (f.step == Step::need_value) {
    expect(':', rapidjson::kParseErrorObjectMissColon);
    skip_blanks();
    f.step = Step::after_value;
    return value();
  }
  int c = m_in->peek();
  if (c == '}') {
    m_in->advance(1);
    return close(EventType::map_end);
  }
  if (f.step == Step::after_value) {
    if (c != ',') {
      fail(rapidjson::kParseErrorObjectMissCommaOrCurlyBracket);
    }
    m_in->advance(1);
    skip_blanks();
    mark = here();
    c = m_in->peek();
  }
  if (c != '"') {
    fail(rapidjson::kParseErrorObjectMissName);
  }
  read_string();
  f.step = Step::need_value;
  return emit_scalar(mark, ScalarStyle::quoted);
}

const Event& JsonSource::in_array(Frame& f) {
  skip_blanks();
  int c = m_in->peek();
  if (c == ']') {
    m_in->advance(1);
    return close(EventType::seq_end);
  }
  if (f.step == Step::after_value) {
    if (c != ',') {
      fail(rapidjson::kParseErrorArrayMissCommaOrSquareBracket);
    }
    m_in->advance(1);
    skip_blanks();
  }
  f.step = Step::after_value;
  return value();
}

const Event& JsonSource::close(EventType type) {
  Mark mark{m_line, static_cast<std::uint32_t>(m_in->offset() - m_line_start)};
  m_stack.pop_back();
  return emit(type, mark);
}

// One value starts at the current byte (blanks already skipped).
const Event& JsonSource::value() {
  Mark mark = here();
  switch (m_in->peek()) {
    case '{':
      m_in->advance(1);
      m_stack.push_back(Frame{true, Step::first});
      return emit(EventType::map_start, mark);
    case '[':
      m_in->advance(1);
      m_stack.push_back(Frame{false, Step::first});
      return emit(EventType::seq_start, mark);
    case '"':
      read_string();
      return emit_scalar(mark, ScalarStyle::quoted);
    case 't':
      read_literal("true");
      return emit_scalar(mark, ScalarStyle::plain);
    case 'f':
      read_literal("false");
      return emit_scalar(mark, ScalarStyle::plain);
    case 'n':
      read_literal("null");
      return emit_scalar(mark, ScalarStyle::plain);
    default:
      read_number();
      return emit_scalar(mark, ScalarStyle::plain);
  }
}

void JsonSource::read_literal(std::string_view word) {
  m_text.clear();
  for (char want : word) {
    if (m_in->peek() != static_cast<unsigned char>(want)) {
      fail(rapidjson::kParseErrorValueInvalid);
    }
    m_in->advance(1);
    m_text.push_back(want);
  }
}

void JsonSource::read_number() {
  m_text.clear();
  auto digits = [this] {
    std::size_t n = 0;
    for (int c = m_in->peek(); c >= '0' && c <= '9'; c = m_in->peek(), ++n) {
      m_text.push_back(static_cast<char>(take()));
    }
    return n;
  };
  if (m_in->peek() == '-') {
    m_text.push_back(static_cast<char>(take()));
  }
  if (m_in->peek() == '0') {
    m_text.push_back(static_cast<char>(take()));
  } else if (digits() == 0) {
    fail(rapidjson::kParseErrorValueInvalid);
  }
  if (m_in->peek() == '.') {
    m_text.push_back(static_cast<char>(take()));
    if (digits() == 0) {
      fail(rapidjson::kParseErrorNumberMissFraction);
    }
  }
  if (m_in->peek() == 'e' || m_in->peek() == 'E') {
    m_text.push_back(static_cast<char>(take()));
    if (m_in->peek() == '+' || m_in->peek() == '-') {
      m_text.push_back(static_cast<char>(take()));
    }
    if (digits() == 0) {
      fail(rapidjson::kParseErrorNumberMissExponent);
    }
  }
}

void JsonSource::read_string() {
  m_text.clear();
  m_in->advance(1);  // the opening quote
  for (;;) {
    std::string_view w = m_in->window();
    if (w.empty()) {
      fail(rapidjson::kParseErrorStringMissQuotationMark);
    }
    std::size_t i = 0;
    while (i < w.size() && w[i] != '"' && w[i] != '\\' &&
           static_cast<unsigned char>(w[i]) >= 0x20) {
      ++i;
    }
    m_text.append(w.data(), i);
    m_in->advance(i);
    if (i == w.size()) {
      continue;
    }
    if (w[i] == '"') {
      m_in->advance(1);
      return;
    }
    if (w[i] != '\\') {
      fail(rapidjson::kParseErrorStringInvalidEncoding);
    }
    m_escape = m_in->offset();
    m_in->advance(1);
    read_escape();
  }
}

void JsonSource::read_escape() {
  int c = take();
  switch (c) {
    case '"':
    case '\\':
    case '/':
      m_text.push_back(static_cast<char>(c));
      return;
    case 'b':
      m_text.push_back('\b');
      return;
    case 'f':
      m_text.push_back('\f');
      return;
    case 'n':
      m_text.push_back('\n');
      return;
    case 'r':
      m_text.push_back('\r');
      return;
    case 't':
      m_text.push_back('\t');
      return;
    case 'u':
      break;
    default:
      fail(rapidjson::kParseErrorStringEscapeInvalid, m_escape);
  }
  unsigned cp = read_hex4();
  if (cp >= 0xD800 && cp <= 0xDBFF) {
    if (take() != '\\' || take() != 'u') {
      fail(rapidjson::kParseErrorStringUnicodeSurrogateInvalid, m_escape);
    }
    unsigned low = read_hex4();
    if (low < 0xDC00 || low > 0xDFFF) {
      fail(rapidjson::kParseErrorStringUnicodeSurrogateInvalid, m_escape);
    }
    cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
  }
  append_utf8(cp);
}

unsigned JsonSource::read_hex4() {
  unsigned v = 0;
  for (int i = 0; i < 4; ++i) {
    int c = take();
    unsigned d = 0;
    if (c >= '0' && c <= '9') {
      d = static_cast<unsigned>(c - '0');
    } else if (c >= 'a' && c <= 'f') {
      d = static_cast<unsigned>(c - 'a' + 10);
    } else if (c >= 'A' && c <= 'F') {
      d = static_cast<unsigned>(c - 'A' + 10);
    } else {
      fail(rapidjson::kParseErrorStringUnicodeEscapeInvalidHex, m_escape);
    }
    v = v * 16 + d;
  }
  return v;
}

void JsonSource::append_utf8(unsigned cp) {
  auto put = [this](unsigned b) { m_text.push_back(static_cast<char>(b)); };
  if (cp < 0x80) {
    put(cp);
  } else if (cp < 0x800) {
    put(0xC0 | (cp >> 6));
    put(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    put(0xE0 | (cp >> 12));
    put(0x80 | ((cp >> 6) & 0x3F));
    put(0x80 | (cp & 0x3F));
  } else {
    put(0xF0 | (cp >> 18));
    put(0x80 | ((cp >> 12) & 0x3F));
    put(0x80 | ((cp >> 6) & 0x3F));
    put(0x80 | (cp & 0x3F));
  }
}

// Skips the container just opened by scanning bytes, without building strings or events:
// managedFields and the like are most of a JSON dump.
void JsonSource::skip_value_rest() {
  std::string closers(1, m_stack.back().object ? '}' : ']');
  while (!closers.empty()) {
    std::string_view w = m_in->window();
    if (w.empty()) {
      fail(closers.back() == '}' ? rapidjson::kParseErrorObjectMissCommaOrCurlyBracket
                                 : rapidjson::kParseErrorArrayMissCommaOrSquareBracket);
    }
    std::size_t i = 0;
    for (; i < w.size() && !closers.empty(); ++i) {
      char c = w[i];
      if (c == '\n') {
        ++m_line;
        m_line_start = m_in->offset() + i + 1;
      } else if (c == '"') {
        break;
      } else if (c == '{' || c == '[') {
        closers.push_back(c == '{' ? '}' : ']');
      } else if (c == '}' || c == ']') {
        if (c != closers.back()) {
          m_in->advance(i);
          fail(closers.back() == '}' ? rapidjson::kParseErrorObjectMissCommaOrCurlyBracket
                                     : rapidjson::kParseErrorArrayMissCommaOrSquareBracket);
        }
        closers.pop_back();
      }
    }
    m_in->advance(i);
    if (i < w.size() && w[i] == '"' && !closers.empty()) {
      read_string();
    }
  }
  m_stack.pop_back();
}

}  // namespace

std::unique_ptr<EventSource> make_json_source(std::unique_ptr<ByteReader> in) {
  return std::make_unique<JsonSource>(std::move(in));
}

}  // namespace kpreempt::load
