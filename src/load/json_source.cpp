// SPDX-License-Identifier: Apache-2.0
// JSON events from RapidJSON's SAX reader. RapidJSON pushes and the loader pulls, so the
// reader runs on its own thread and hands events over in batches. Several concatenated
// top-level values are read as several documents.
#include "load/json_batches.h"
#include "load/json_input.h"
#include "load/sources.h"

#include <rapidjson/error/en.h>
#include <rapidjson/reader.h>

#include <string>
#include <thread>

namespace kpreempt::load {
namespace {

// Iterative: hostile nesting cannot overflow the stack. Numbers as strings: decoders see the
// exact text written. Encoding validation: libyaml checks YAML input too; its cost was lost in
// the noise of a whole load.
constexpr unsigned k_parse_flags =
    rapidjson::kParseIterativeFlag | rapidjson::kParseStopWhenDoneFlag |
    rapidjson::kParseNumbersAsStringsFlag | rapidjson::kParseValidateEncodingFlag;

// Deeper than any Kubernetes object; bounds RapidJSON's own stack in skipped subtrees, which
// the tree builder's limit does not see.
constexpr int k_max_depth = 1000;

std::string error_text(rapidjson::ParseErrorCode code) {
  if (code == rapidjson::kParseErrorDocumentEmpty) {
    // Also what RapidJSON says about a stray '}' or ']' after a complete document.
    return "expected a JSON value";
  }
  // RapidJSON's texts are sentences; diagnostics are lower-case without a final period.
  std::string text = rapidjson::GetParseError_En(code);
  if (!text.empty() && text.back() == '.') {
    text.pop_back();
  }
  if (!text.empty() && text[0] >= 'A' && text[0] <= 'Z') {
    text[0] = static_cast<char>(text[0] - 'A' + 'a');
  }
  return text;
}

// The SAX handler and the parsing loop, run on the producer thread.
class JsonProducer : public rapidjson::BaseReaderHandler<rapidjson::UTF8<>, JsonProducer> {
 public:
  JsonProducer(std::unique_ptr<ByteReader> in, const JsonResume* at, JsonBatchQueue& queue)
      : m_in(std::move(in)), m_input(*m_in, at), m_queue(queue) {}

  void run();

  bool Null() { return scalar("null", ScalarStyle::plain); }
  bool Bool(bool b) { return scalar(b ? "true" : "false", ScalarStyle::plain); }
  bool RawNumber(const char* s, rapidjson::SizeType n, bool) {
    return scalar({s, n}, ScalarStyle::plain);
  }
  bool String(const char* s, rapidjson::SizeType n, bool) {
    return scalar({s, n}, ScalarStyle::quoted);
  }
  bool Key(const char* s, rapidjson::SizeType n, bool) {
    return scalar({s, n}, ScalarStyle::quoted);
  }
  bool StartObject() { return open(EventType::map_start); }
  bool EndObject(rapidjson::SizeType) { return close(EventType::map_end); }
  bool StartArray() { return open(EventType::seq_start); }
  bool EndArray(rapidjson::SizeType) { return close(EventType::seq_end); }
  // Numbers arrive through RawNumber; the typed callbacks are unreachable with these flags.
  bool Default() { return false; }

 private:
  bool scalar(std::string_view text, ScalarStyle style) {
    JsonBatch& b = *m_batch;
    b.events.push_back(JsonEvent{EventType::scalar, style, static_cast<std::uint32_t>(text.size()),
                                 b.text.size(), m_input.token_start()});
    b.text.append(text);
    return flush_if_full();
  }
  bool open(EventType type) {
    if (++m_depth > k_max_depth) {
      m_too_deep = m_input.token_start();
      return false;
    }
    return bracket(type);
  }
  bool close(EventType type) {
    --m_depth;
    return bracket(type);
  }
  bool bracket(EventType type) {
    add(type, m_input.token_start());
    return flush_if_full();
  }
  void add(EventType type, Mark mark) {
    m_batch->events.push_back(JsonEvent{type, ScalarStyle::plain, 0, 0, mark});
  }
  bool flush_if_full() {
    if (m_batch->full() && !m_queue.push(m_batch)) {
      m_cancelled = true;
    }
    return !m_cancelled;
  }
  bool parse_documents();
  void fail(Mark mark, std::string message) {
    m_batch->error = std::make_exception_ptr(
        InputError(SourceLoc{m_in->name(), mark.line, mark.column}, std::move(message)));
  }

  std::unique_ptr<ByteReader> m_in;
  JsonInput m_input;
  JsonBatchQueue& m_queue;
  std::unique_ptr<JsonBatch> m_batch = std::make_unique<JsonBatch>();
  int m_depth = 0;
  Mark m_too_deep;
  bool m_cancelled = false;
};

void JsonProducer::run() {
  try {
    if (!parse_documents()) {
      return;  // cancelled
    }
  } catch (...) {
    m_batch->error = std::current_exception();  // out of memory, most likely
  }
  m_batch->last = true;
  m_queue.push(m_batch);
}

// False when the reading side went away.
bool JsonProducer::parse_documents() {
  rapidjson::Reader reader;
  for (;;) {
    m_input.skip_blanks();
    if (m_input.at_end() && m_input.read_error() == nullptr) {
      add(EventType::stream_end, m_input.here());
      return true;
    }
    add(EventType::document_start, m_input.here());
    m_depth = 0;
    rapidjson::ParseResult result = reader.Parse<k_parse_flags>(m_input, *this);
    if (m_input.read_error() != nullptr) {
      m_batch->error = m_input.read_error();
      return true;
    }
    if (m_cancelled) {
      return false;
    }
    if (result.Code() == rapidjson::kParseErrorTermination && m_depth > k_max_depth) {
      fail(m_too_deep, "nesting is too deep");
      return true;
    }
    if (result.IsError()) {
      fail(m_input.mark_at(result.Offset()), error_text(result.Code()));
      return true;
    }
    add(EventType::document_end, m_input.here());
  }
}

class JsonSource final : public EventSource {
 public:
  JsonSource(std::unique_ptr<ByteReader> in, const JsonResume* at)
      : m_name(in->name()), m_producer(std::move(in), at, m_queue) {
    m_thread = std::thread([this] { m_producer.run(); });
  }
  // Abandoning the input early is normal (a syntax error ends a file): the producer is told
  // to stop at its next hand-over and joined.
  ~JsonSource() override {
    m_queue.cancel();
    m_thread.join();
  }
  JsonSource(const JsonSource&) = delete;
  JsonSource& operator=(const JsonSource&) = delete;

  const Event& next() override;
  void skip_value_rest() override;
  const std::string& file_name() const override { return m_name; }

 private:
  // The current raw event, fetching the next batch when this one is spent.
  const JsonEvent& peek_raw() {
    while (m_batch == nullptr || m_pos == m_batch->events.size()) {
      if (m_batch != nullptr && m_batch->last) {
        if (m_batch->error == nullptr) {
          // Not reached: a last batch without an error ends with stream_end, which stays.
          throw InputError(SourceLoc{m_name, 0, 0}, "unexpected end of input");
        }
        std::rethrow_exception(m_batch->error);
      }
      m_batch = m_queue.pop(std::move(m_batch));
      m_pos = 0;
    }
    return m_batch->events[m_pos];
  }

  std::string m_name;
  JsonBatchQueue m_queue;
  JsonProducer m_producer;
  std::thread m_thread;
  std::unique_ptr<JsonBatch> m_batch;
  std::size_t m_pos = 0;
  Event m_out;
};

const Event& JsonSource::next() {
  const JsonEvent& raw = peek_raw();
  if (raw.type != EventType::stream_end) {
    ++m_pos;  // stream_end stays, to be returned again
  }
  std::string_view text;
  if (raw.type == EventType::scalar) {
    text = std::string_view(m_batch->text).substr(raw.text_offset, raw.text_len);
  }
  m_out = Event{raw.type, raw.mark, text, raw.style};
  return m_out;
}

// RapidJSON has tokenised the skipped value anyway; this only avoids building the events.
void JsonSource::skip_value_rest() {
  int depth = 1;
  while (depth > 0) {
    switch (peek_raw().type) {
      case EventType::map_start:
      case EventType::seq_start:
        ++depth;
        break;
      case EventType::map_end:
      case EventType::seq_end:
        --depth;
        break;
      case EventType::stream_end:
        return;
      default:
        break;
    }
    ++m_pos;
  }
}

}  // namespace

std::unique_ptr<EventSource> make_rapidjson_source(std::unique_ptr<ByteReader> in,
                                                   const JsonResume* at) {
  return std::make_unique<JsonSource>(std::move(in), at);
}

}  // namespace kpreempt::load
