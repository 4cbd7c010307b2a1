// SPDX-License-Identifier: Apache-2.0
// The kubectl reader works a line at a time, as kubectl writes a line at a time: the indentation
// of a line says which collections end, its first bytes what it holds. A scalar that may run on
// (plain, quoted, literal) is gathered whole before any event of it is handed out, and the events
// of a line are handed out only once the line has been read to its end, so a decline never
// follows a wrong event. Scalars are unfolded and unescaped by the same steps as libyaml's
// scanner (0.2.5), and marks are libyaml's: the position of a collection's first key or entry, of
// a scalar's first character, and for the end of a collection the next token's position.
#include "load/kubectl_yaml.h"

#include "load/split_guard.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <deque>
#include <string>
#include <string_view>
#include <vector>

namespace kpreempt::load {
namespace {

using namespace std::string_view_literals;

constexpr std::size_t k_npos = std::string_view::npos;
constexpr std::size_t k_max_depth = 1000;
constexpr std::size_t k_max_key = 1000;  // libyaml takes a key of up to 1024 characters
constexpr std::size_t k_max_text = std::size_t{16} << 20;  // a line or a scalar

[[noreturn]] void decline() {
  throw ScanDeclined{};
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') {
    return c - '0';
  }
  if (c >= 'a' && c <= 'f') {
    return c - 'a' + 10;
  }
  if (c >= 'A' && c <= 'F') {
    return c - 'A' + 10;
  }
  return -1;
}

void append_utf8(std::string& out, std::uint32_t v) {
  if (v <= 0x7F) {
    out += static_cast<char>(v);
  } else if (v <= 0x7FF) {
    out += static_cast<char>(0xC0 + (v >> 6));
    out += static_cast<char>(0x80 + (v & 0x3F));
  } else if (v <= 0xFFFF) {
    out += static_cast<char>(0xE0 + (v >> 12));
    out += static_cast<char>(0x80 + ((v >> 6) & 0x3F));
    out += static_cast<char>(0x80 + (v & 0x3F));
  } else {
    out += static_cast<char>(0xF0 + (v >> 18));
    out += static_cast<char>(0x80 + ((v >> 12) & 0x3F));
    out += static_cast<char>(0x80 + ((v >> 6) & 0x3F));
    out += static_cast<char>(0x80 + (v & 0x3F));
  }
}

// Whether every byte is printable ASCII, eight at a time.
bool printable_ascii(std::string_view s) {
  constexpr std::uint64_t ones = 0x0101010101010101ULL;
  constexpr std::uint64_t highs = 0x8080808080808080ULL;
  std::size_t i = 0;
  for (; i + 8 <= s.size(); i += 8) {
    std::uint64_t w = 0;
    std::memcpy(&w, s.data() + i, 8);
    const std::uint64_t below_space = (w - ones * 0x20) & ~w & highs;
    const std::uint64_t del = w ^ (ones * 0x7F);
    const std::uint64_t is_del = (del - ones) & ~del & highs;
    if ((below_space | is_del | (w & highs)) != 0) {
      return false;
    }
  }
  for (; i < s.size(); ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c < 0x20 || c >= 0x7F) {
      return false;
    }
  }
  return true;
}

// The width of the UTF-8 character at `i` when libyaml's reader takes it and it is no line
// break or byte order mark to libyaml's scanner; 0 otherwise.
std::size_t utf8_width(std::string_view s, std::size_t i) {
  const auto c = static_cast<unsigned char>(s[i]);
  const std::size_t width = (c & 0xE0) == 0xC0   ? 2
                            : (c & 0xF0) == 0xE0 ? 3
                            : (c & 0xF8) == 0xF0 ? 4
                                                 : 0;
  if (width == 0 || i + width > s.size()) {
    return 0;
  }
  std::uint32_t v = width == 2 ? (c & 0x1F) : width == 3 ? (c & 0x0F) : (c & 0x07);
  for (std::size_t k = 1; k < width; ++k) {
    const auto b = static_cast<unsigned char>(s[i + k]);
    if ((b & 0xC0) != 0x80) {
      return 0;
    }
    v = (v << 6) | (b & 0x3F);
  }
  const bool shortest =
      (width == 2 && v >= 0x80) || (width == 3 && v >= 0x800) || (width == 4 && v >= 0x10000);
  const bool printable =
      (v >= 0xA0 && v <= 0xD7FF) || (v >= 0xE000 && v <= 0xFFFD) || (v >= 0x10000 && v <= 0x10FFFF);
  const bool special = v == 0x2028 || v == 0x2029 || v == 0xFEFF;  // breaks, byte order mark
  return shortest && printable && !special ? width : 0;
}

// Declines a line with a byte libyaml refuses or reads otherwise than as a plain character:
// control characters (tabs and carriage returns too), malformed UTF-8, NEL, LS, PS, BOM.
// Returns whether the line is all ASCII, where a column is a byte offset.
bool check_line(std::string_view s) {
  if (printable_ascii(s)) {
    return true;
  }
  for (std::size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) {
      if (c < 0x20 || c == 0x7F) {
        decline();
      }
      ++i;
      continue;
    }
    const std::size_t w = utf8_width(s, i);
    if (w == 0) {
      decline();
    }
    i += w;
  }
  return false;
}

std::size_t indent_of(std::string_view line) {
  std::size_t i = 0;
  while (i < line.size() && line[i] == ' ') {
    ++i;
  }
  return i;
}

// libyaml's escape `\\c` written to `out`: 0, or the count of hex digits that follow (\\x, \\u,
// \\U); -1 for an escape libyaml refuses.
int unescape(char c, std::string& out) {
  static constexpr std::string_view k_from = "0abtnvfre \"/\\\t"sv;
  static constexpr std::string_view k_to = "\0\x07\x08\x09\x0A\x0B\x0C\x0D\x1B \"/\\\x09"sv;
  if (const std::size_t at = k_from.find(c); at != k_npos) {
    out += k_to[at];
    return 0;
  }
  switch (c) {
    case 'N':
      out += "\xC2\x85";
      return 0;
    case '_':
      out += "\xC2\xA0";
      return 0;
    case 'L':
      out += "\xE2\x80\xA8";
      return 0;
    case 'P':
      out += "\xE2\x80\xA9";
      return 0;
    case 'x':
      return 2;
    case 'u':
      return 4;
    case 'U':
      return 8;
    default:
      return -1;
  }
}

// The escape sequence at s[i] (its backslash) written to `out`, `i` moved past it; false where
// libyaml refuses it.
bool read_escape(std::string_view s, std::size_t& i, std::string& out) {
  const int code_length = i + 1 < s.size() ? unescape(s[i + 1], out) : -1;
  if (code_length < 0) {
    return false;
  }
  i += 2;
  if (code_length == 0) {
    return true;
  }
  const auto digits = static_cast<std::size_t>(code_length);
  std::uint32_t v = 0;
  for (std::size_t k = 0; k < digits; ++k) {
    const int h = i + k < s.size() ? hex_value(s[i + k]) : -1;
    if (h < 0) {
      return false;
    }
    v = (v << 4) + static_cast<std::uint32_t>(h);
  }
  if ((v >= 0xD800 && v <= 0xDFFF) || v > 0x10FFFF) {
    return false;
  }
  append_utf8(out, v);
  i += digits;
  return true;
}

// libyaml's unescaping and folding of a quoted scalar `s`, quotes included. False where libyaml
// fails or would end the scalar elsewhere.
bool unquote(std::string_view s, std::string& out) {
  const bool single = s[0] == '\'';
  const char quote = s[0];
  const std::size_t n = s.size();
  std::size_t i = 1;
  std::string whitespaces;
  bool leading_break = false;  // libyaml's leading_break holds "\n" (or nothing)
  std::size_t trailing_breaks = 0;
  for (;;) {
    bool leading_blanks = false;
    while (i < n && s[i] != ' ' && s[i] != '\n') {
      const char c = s[i];
      if (single && c == '\'' && i + 1 < n && s[i + 1] == '\'') {
        out += '\'';
        i += 2;
      } else if (c == quote) {
        break;
      } else if (!single && c == '\\' && i + 1 < n && s[i + 1] == '\n') {
        i += 2;
        leading_blanks = true;
        break;
      } else if (!single && c == '\\') {
        if (!read_escape(s, i, out)) {
          return false;
        }
      } else {
        out += c;
        ++i;
      }
    }
    if (i >= n) {
      return false;
    }
    if (s[i] == quote) {
      break;
    }
    while (i < n && (s[i] == ' ' || s[i] == '\n')) {
      if (s[i] == ' ') {
        if (!leading_blanks) {
          whitespaces += ' ';
        }
      } else if (!leading_blanks) {
        whitespaces.clear();
        leading_break = true;
        leading_blanks = true;
      } else {
        ++trailing_breaks;
      }
      ++i;
    }
    if (leading_blanks) {
      if (leading_break && trailing_breaks == 0) {
        out += ' ';
      } else {
        out.append(trailing_breaks, '\n');
      }
      leading_break = false;
      trailing_breaks = 0;
    } else {
      out += whitespaces;
      whitespaces.clear();
    }
  }
  return i == n - 1;
}

// libyaml's reading of a literal block scalar's lines `s` (header excluded) in a collection
// indented `parent`: false where libyaml would end the scalar before the end of `s`.
bool unliteral(std::string_view s, std::size_t parent, std::size_t increment, int chomp,
               std::string& out) {
  const std::size_t n = s.size();
  std::size_t indent = increment > 0 ? parent + increment : 0;
  std::size_t i = 0, col = 0, max_indent = 0, trailing = 0;
  bool leading = false;
  const auto breaks = [&] {
    for (;;) {
      while ((indent == 0 || col < indent) && i < n && s[i] == ' ') {
        ++i;
        ++col;
      }
      max_indent = std::max(max_indent, col);
      if (i >= n || s[i] != '\n') {
        break;
      }
      ++trailing;
      ++i;
      col = 0;
    }
    if (indent == 0) {
      indent = std::max({max_indent, parent + 1, std::size_t{1}});
    }
  };
  breaks();
  while (col == indent && i < n) {
    if (leading) {
      out += '\n';
    }
    leading = false;
    out.append(trailing, '\n');
    trailing = 0;
    const std::size_t nl = s.find('\n', i);
    const std::size_t stop = nl == k_npos ? n : nl;
    out.append(s.substr(i, stop - i));
    i = stop;
    if (i >= n) {
      break;
    }
    leading = true;
    ++i;
    col = 0;
    breaks();
  }
  if (i != n) {
    return false;
  }
  if (chomp != -1 && leading) {
    out += '\n';
  }
  if (chomp == 1) {
    out.append(trailing, '\n');
  }
  return true;
}

// Lines of a ByteReader without their line breaks, copied only when one spans two buffers.
class Lines {
 public:
  explicit Lines(ByteReader& in) : m_in(in) {}

  bool next(std::string_view& line) {
    std::string_view w = m_in.window();
    if (w.empty()) {
      return false;
    }
    ++m_count;
    if (const auto* nl = static_cast<const char*>(std::memchr(w.data(), '\n', w.size()))) {
      const auto n = static_cast<std::size_t>(nl - w.data());
      line = w.substr(0, n);
      m_in.advance(n + 1);
      m_broken = true;
      return true;
    }
    m_carry.assign(w);
    m_in.advance(w.size());
    for (;;) {
      w = m_in.window();
      if (w.empty()) {
        line = m_carry;
        m_broken = false;
        return true;
      }
      if (const auto* nl = static_cast<const char*>(std::memchr(w.data(), '\n', w.size()))) {
        const auto n = static_cast<std::size_t>(nl - w.data());
        m_carry.append(w.substr(0, n));
        m_in.advance(n + 1);
        line = m_carry;
        m_broken = true;
        return true;
      }
      m_carry.append(w);
      m_in.advance(w.size());
      if (m_carry.size() > k_max_text) {
        decline();
      }
    }
  }
  // Lines handed out so far.
  std::uint32_t count() const { return m_count; }
  // Whether the last line handed out ended with a line break (all but maybe the last do).
  bool broken() const { return m_broken; }

 private:
  ByteReader& m_in;
  std::string m_carry;
  std::uint32_t m_count = 0;
  bool m_broken = true;
};

class KubectlYamlSource final : public EventSource {
 public:
  explicit KubectlYamlSource(std::unique_ptr<ByteReader> in)
      : m_in(std::move(in)), m_lines(*m_in) {}

  const Event& next() override;
  const std::string& file_name() const override { return m_in->name(); }

 private:
  // An open block collection: where its keys or entries start.
  struct Level {
    std::size_t indent = 0;
    bool seq = false;
    bool indentless = false;  // a sequence at its key's indentation
  };
  struct Queued {
    EventType type;
    Mark mark;
    ScalarStyle style;
    int text;  // into m_texts, or -1
  };

  bool read_line();
  void hold() { m_held = true; }
  std::uint32_t col(std::size_t at) const;
  Mark at(std::size_t i) const { return Mark{m_no, col(i)}; }
  bool is_entry(std::size_t i) const {
    return m_line[i] == '-' && (i + 1 == m_line.size() || m_line[i + 1] == ' ');
  }
  bool only_spaces(std::size_t from) const {
    return from >= m_line.size() || indent_of(m_line.substr(from)) == m_line.size() - from;
  }
  bool plain_start(std::size_t i) const;
  std::size_t plain_end(std::size_t from) const;
  std::size_t key_colon(std::size_t p) const;

  void push(EventType type, Mark mark) { m_queue.push_back({type, mark, ScalarStyle::plain, -1}); }
  void open_level(Level level) {
    if (m_stack.size() >= k_max_depth) {
      decline();  // `- - - ...` nests by recursion here; libyaml takes it, the loader refuses it
    }
    m_stack.push_back(level);
  }
  std::string& new_text() {
    if (m_used == m_texts.size()) {
      m_texts.emplace_back();
    }
    std::string& s = m_texts[m_used++];
    s.clear();
    return s;
  }
  void push_text(Mark mark, ScalarStyle style) {
    m_queue.push_back({EventType::scalar, mark, style, static_cast<int>(m_used - 1)});
  }

  void step();
  void start_document(std::size_t c);
  void content(std::size_t c);
  void close_to(std::size_t c, bool entry, Mark mark);
  void item(std::size_t c);
  void key_entry(std::size_t p);
  void value(std::size_t v);
  void plain_value(std::size_t v);
  void quoted_value(std::size_t v);
  void literal_value(std::size_t v);
  void finish();

  std::unique_ptr<ByteReader> m_in;
  Lines m_lines;
  std::string_view m_line;  // the line being read
  std::uint32_t m_no = 0;   // its number
  bool m_ascii = true;
  std::size_t m_blank_width = k_npos;  // of the last line read, when it is all spaces
  bool m_held = false;                 // read again by the next read_line()
  std::vector<Level> m_stack;
  bool m_started = false;
  bool m_pending = false;  // a `key:` whose value is on the lines below, or empty
  std::size_t m_pending_indent = 0;
  Mark m_pending_mark;
  std::vector<Queued> m_queue;
  std::size_t m_head = 0;
  std::deque<std::string> m_texts;  // stable addresses while a line is read
  std::size_t m_used = 0;
  std::string m_raw;  // a multi-line scalar as written
  Event m_out;
  bool m_done = false;
};

bool KubectlYamlSource::read_line() {
  if (m_held) {
    m_held = false;
    return true;
  }
  if (!m_lines.next(m_line)) {
    return false;
  }
  m_no = m_lines.count();
  m_ascii = check_line(m_line);
  m_blank_width = indent_of(m_line) == m_line.size() ? m_line.size() : k_npos;
  return true;
}

// libyaml counts columns in characters.
std::uint32_t KubectlYamlSource::col(std::size_t at) const {
  if (m_ascii) {
    return static_cast<std::uint32_t>(at + 1);
  }
  std::uint32_t n = 1;
  for (std::size_t i = 0; i < at; ++i) {
    n += (static_cast<unsigned char>(m_line[i]) & 0xC0) != 0x80 ? 1 : 0;
  }
  return n;
}

// libyaml's test for a plain scalar's first character, in block context.
bool KubectlYamlSource::plain_start(std::size_t i) const {
  const char c = m_line[i];
  const bool blank_next = i + 1 == m_line.size() || m_line[i + 1] == ' ';
  switch (c) {
    case '-':
    case '?':
    case ':':
      return !blank_next;
    case ' ':
    case ',':
    case '[':
    case ']':
    case '{':
    case '}':
    case '#':
    case '&':
    case '*':
    case '!':
    case '|':
    case '>':
    case '\'':
    case '"':
    case '%':
    case '@':
    case '`':
      return false;
    default:
      return true;
  }
}

// The end of a plain scalar's text on this line (trailing spaces left out); declines where it
// would stop early, at `: ` or ` #`.
std::size_t KubectlYamlSource::plain_end(std::size_t from) const {
  std::size_t end = from;
  for (std::size_t i = from; i < m_line.size(); ++i) {
    const char c = m_line[i];
    if (c == ' ') {
      continue;
    }
    if ((c == ':' && (i + 1 == m_line.size() || m_line[i + 1] == ' ')) ||
        (c == '#' && i > from && m_line[i - 1] == ' ')) {
      decline();
    }
    end = i + 1;
  }
  return end;
}

// The `:` after a key starting at `p` (plain, or quoted on one line), or npos.
std::size_t KubectlYamlSource::key_colon(std::size_t p) const {
  const char c = m_line[p];
  const auto colon_at = [&](std::size_t i) {
    return i < m_line.size() && m_line[i] == ':' &&
           (i + 1 == m_line.size() || m_line[i + 1] == ' ');
  };
  if (c == '"' || c == '\'') {
    const std::size_t close = closing_quote(m_line, p + 1, c);
    return close != k_npos && colon_at(close + 1) ? close + 1 : k_npos;
  }
  if (!plain_start(p)) {
    return k_npos;
  }
  for (std::size_t i = p; i < m_line.size(); ++i) {
    if (m_line[i] == '#' && m_line[i - 1] == ' ') {
      return k_npos;
    }
    if (colon_at(i)) {
      return m_line[i - 1] == ' ' ? k_npos : i;
    }
  }
  return k_npos;
}

const Event& KubectlYamlSource::next() {
  if (m_done) {
    m_out = Event{};
    return m_out;
  }
  while (m_head == m_queue.size()) {
    m_queue.clear();
    m_head = 0;
    m_used = 0;
    step();
  }
  const Queued& q = m_queue[m_head++];
  m_out.type = q.type;
  m_out.mark = q.mark;
  m_out.style = q.style;
  m_out.text = q.text >= 0 ? std::string_view(m_texts[static_cast<std::size_t>(q.text)])
                           : std::string_view();
  m_done = q.type == EventType::stream_end;
  return m_out;
}

void KubectlYamlSource::step() {
  if (!read_line()) {
    finish();
    return;
  }
  const std::size_t c = indent_of(m_line);
  if (c == m_line.size()) {
    return;  // blank
  }
  const std::string_view head = m_line.substr(0, 3);
  if ((head == "---" || head == "...") && (m_line.size() == 3 || m_line[3] == ' ')) {
    decline();  // a document marker
  }
  if (!m_started) {
    start_document(c);
  }
  content(c);
}

// The document and its root collection start at the first line's first character.
void KubectlYamlSource::start_document(std::size_t c) {
  if (c != 0) {
    decline();
  }
  m_started = true;
  push(EventType::document_start, at(0));
  const bool seq = is_entry(0);
  push(seq ? EventType::seq_start : EventType::map_start, at(0));
  open_level({0, seq, false});
}

void KubectlYamlSource::content(std::size_t c) {
  const bool entry = is_entry(c);
  if (m_pending) {
    m_pending = false;
    if (entry && c >= m_pending_indent) {
      push(EventType::seq_start, at(c));
      open_level({c, true, c == m_pending_indent});
      item(c);
      return;
    }
    if (!entry && c > m_pending_indent) {
      push(EventType::map_start, at(c));
      open_level({c, false, false});
      key_entry(c);
      return;
    }
    push(EventType::scalar, m_pending_mark);  // `key:` and nothing: an empty plain scalar
  }
  close_to(c, entry, at(c));
  const Level& top = m_stack.back();
  if (top.indent != c || top.seq != entry) {
    decline();
  }
  if (entry) {
    item(c);
  } else {
    key_entry(c);
  }
}

// Ends the collections a line at `c` is outside of, at the line's first character.
void KubectlYamlSource::close_to(std::size_t c, bool entry, Mark mark) {
  while (!m_stack.empty()) {
    const Level& top = m_stack.back();
    if (top.indent < c || (top.indent == c && (!top.indentless || entry))) {
      return;
    }
    push(top.seq ? EventType::seq_end : EventType::map_end, mark);
    m_stack.pop_back();
  }
  decline();
}

// `- ` at `c`, then a scalar, a nested `- `, or the first key of a map.
void KubectlYamlSource::item(std::size_t c) {
  const std::size_t p = c + 2;
  if (p >= m_line.size() || m_line[p] == ' ') {
    decline();  // an empty entry, or one indented otherwise than kubectl does
  }
  if (is_entry(p)) {
    push(EventType::seq_start, at(p));
    open_level({p, true, false});
    item(p);
    return;
  }
  if (key_colon(p) != k_npos) {
    push(EventType::map_start, at(p));
    open_level({p, false, false});
    key_entry(p);
    return;
  }
  value(p);
}

// `key: value` or `key:` at `p`, in the map at `p`.
void KubectlYamlSource::key_entry(std::size_t p) {
  const std::size_t colon = key_colon(p);
  if (colon == k_npos || colon - p > k_max_key) {
    decline();
  }
  std::string& key = new_text();
  if (m_line[p] == '"' || m_line[p] == '\'') {
    if (!unquote(m_line.substr(p, colon - p), key)) {
      decline();
    }
    push_text(at(p), ScalarStyle::quoted);
  } else {
    key.assign(m_line.substr(p, colon - p));
    push_text(at(p), ScalarStyle::plain);
  }
  std::size_t v = colon + 1;
  while (v < m_line.size() && m_line[v] == ' ') {
    ++v;
  }
  if (v == m_line.size()) {
    m_pending = true;
    m_pending_indent = p;
    m_pending_mark = at(colon + 1);
    return;
  }
  value(v);
}

// A scalar, `[]` or `{}` starting at `v`, the last thing on its line.
void KubectlYamlSource::value(std::size_t v) {
  const char c = m_line[v];
  if (c == '"' || c == '\'') {
    quoted_value(v);
  } else if (c == '|') {
    literal_value(v);
  } else if (c == '[' || c == '{') {
    const char close = c == '[' ? ']' : '}';
    if (v + 1 >= m_line.size() || m_line[v + 1] != close || !only_spaces(v + 2)) {
      decline();
    }
    push(c == '[' ? EventType::seq_start : EventType::map_start, at(v));
    push(c == '[' ? EventType::seq_end : EventType::map_end, at(v + 1));
  } else if (plain_start(v)) {
    plain_value(v);
  } else {
    decline();
  }
}

// A plain scalar runs on over the lines indented deeper than its collection; a line break
// folds to a space, n breaks to n-1 newlines.
void KubectlYamlSource::plain_value(std::size_t v) {
  const Mark mark = at(v);
  std::string& text = new_text();
  text.assign(m_line.substr(v, plain_end(v) - v));
  const std::size_t indent = m_stack.back().indent;
  std::size_t blank_lines = 0;
  while (read_line()) {
    const std::size_t c = indent_of(m_line);
    if (c == m_line.size()) {
      ++blank_lines;
      continue;
    }
    if (c <= indent) {
      hold();
      break;
    }
    if (m_line[c] == '#') {
      decline();
    }
    if (blank_lines == 0) {
      text += ' ';
    } else {
      text.append(blank_lines, '\n');
    }
    blank_lines = 0;
    text.append(m_line.substr(c, plain_end(c) - c));
    if (text.size() > k_max_text) {
      decline();
    }
  }
  push_text(mark, ScalarStyle::plain);
}

// A quoted scalar, continued on lines indented deeper than its collection, as kubectl folds
// long ones.
void KubectlYamlSource::quoted_value(std::size_t v) {
  const Mark mark = at(v);
  const char quote = m_line[v];
  std::string& text = new_text();
  std::size_t close = closing_quote(m_line, v + 1, quote);
  if (close != k_npos) {
    if (!only_spaces(close + 1)) {
      decline();
    }
    const std::string_view inside = m_line.substr(v + 1, close - v - 1);
    if (inside.find(quote == '"' ? '\\' : '\'') == k_npos) {
      text.assign(inside);  // on one line and with nothing to unescape: as written
    } else if (!unquote(m_line.substr(v, close + 1 - v), text)) {
      decline();
    }
    push_text(mark, ScalarStyle::quoted);
    return;
  }
  const std::size_t indent = m_stack.back().indent;
  m_raw.assign(m_line.substr(v));
  for (;;) {
    if (!read_line()) {
      decline();
    }
    m_raw += '\n';
    const std::size_t c = indent_of(m_line);
    if (c < m_line.size() && c <= indent) {
      decline();
    }
    close = closing_quote(m_line, 0, quote);
    if (close != k_npos) {
      if (!only_spaces(close + 1)) {
        decline();
      }
      m_raw.append(m_line.substr(0, close + 1));
      break;
    }
    m_raw.append(m_line);
    if (m_raw.size() > k_max_text) {
      decline();
    }
  }
  if (!unquote(m_raw, text)) {
    decline();
  }
  push_text(mark, ScalarStyle::quoted);
}

// `|`, `|-`, `|+`, with an indentation indicator or not; its text is every line below indented
// deeper than its collection.
void KubectlYamlSource::literal_value(std::size_t v) {
  const Mark mark = at(v);
  std::size_t i = v + 1;
  int chomp = 0;
  std::size_t increment = 0;
  const auto chomping = [&] {
    if (i < m_line.size() && (m_line[i] == '+' || m_line[i] == '-')) {
      chomp = m_line[i] == '+' ? 1 : -1;
      ++i;
      return true;
    }
    return false;
  };
  const auto indentation = [&] {
    if (i < m_line.size() && m_line[i] >= '1' && m_line[i] <= '9') {
      increment = static_cast<std::size_t>(m_line[i] - '0');
      ++i;
      return true;
    }
    return false;
  };
  if (chomping()) {
    indentation();
  } else if (indentation()) {
    chomping();
  }
  if (!only_spaces(i)) {
    decline();
  }
  const std::size_t parent = m_stack.back().indent;
  m_raw.clear();
  while (read_line()) {
    const std::size_t c = indent_of(m_line);
    if (c < m_line.size() && c <= parent) {
      hold();
      break;
    }
    m_raw.append(m_line);
    if (m_lines.broken()) {
      m_raw += '\n';
    }
    if (m_raw.size() > k_max_text) {
      decline();
    }
  }
  std::string& text = new_text();
  if (!unliteral(m_raw, parent, increment, chomp, text)) {
    decline();
  }
  push_text(mark, ScalarStyle::quoted);
}

// The end of the input ends every collection and the document, on the line after the last;
// but when the input ends in spaces without a line break, libyaml first ends the collections
// indented deeper than those spaces, where they end.
void KubectlYamlSource::finish() {
  if (!m_started) {
    decline();
  }
  const Mark end{m_lines.count() + 1, 1};
  const std::size_t spaces = m_lines.broken() ? k_npos : m_blank_width;
  if (m_pending) {
    m_pending = false;
    push(EventType::scalar, m_pending_mark);
  }
  while (!m_stack.empty()) {
    const Level& top = m_stack.back();
    const bool early = spaces != k_npos && top.indent > spaces;
    push(top.seq ? EventType::seq_end : EventType::map_end,
         early ? Mark{m_lines.count(), static_cast<std::uint32_t>(spaces + 1)} : end);
    m_stack.pop_back();
  }
  push(EventType::document_end, end);
  push(EventType::stream_end, end);
}

}  // namespace

std::unique_ptr<EventSource> make_kubectl_yaml_source(std::unique_ptr<ByteReader> in) {
  return std::make_unique<KubectlYamlSource>(std::move(in));
}

}  // namespace kpreempt::load
