// SPDX-License-Identifier: Apache-2.0
// A big kubectl List read on several cores. libyaml manages ~80 MB/s on one core, so a 1 GB
// dump needs the items split: kubectl prints every item of a List at a fixed indentation
// (YAML: a `- ` at column 0; JSON: `{` after eight spaces), which finds item boundaries
// without parsing. Whatever could make a part read differently from the whole (another
// layout, a document marker, a syntax error, a walk cut short) sends the file back to the
// one-thread path, so the split never changes an answer or a message.
#include "load/parallel_list.h"

#include "load/byte_reader.h"
#include "load/file_stamp.h"
#include "load/kubectl_yaml.h"
#include "load/sources.h"
#include "load/stream.h"

#include "kpreempt/load/events.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <optional>
#include <string_view>
#include <thread>

namespace kpreempt::load {
namespace {

constexpr std::size_t k_probe = std::size_t{4} << 20;  // bytes searched for a boundary
constexpr unsigned k_max_parts = 16;

constexpr std::string_view k_yaml_head = "apiVersion: v1\nitems:\n- ";
constexpr std::string_view k_yaml_tail = "\nkind: List\n";
constexpr std::string_view k_json_head =
    "{\n    \"apiVersion\": \"v1\",\n    \"items\": [\n        {\n";
constexpr std::string_view k_json_tail = "\n    ]";
// Between two items: `},` closes one, `{` opens the next; the comma is the byte after the '}'.
constexpr std::string_view k_json_gap = "\n        },\n        {\n";
constexpr std::size_t k_json_comma = 10;
constexpr std::size_t k_json_next = 12;

enum class Format { yaml, json };

class Fd {
 public:
  explicit Fd(const std::string& path)
      : m_fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK)) {}
  ~Fd() {
    if (m_fd >= 0) {
      ::close(m_fd);
    }
  }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;

  bool ok() const { return m_fd >= 0; }
  int get() const { return m_fd; }
  std::optional<FileStamp> stamp() const { return FileStamp::of(m_fd); }
  std::string read_at(std::uint64_t offset, std::size_t size) const {
    std::string out(size, '\0');
    std::size_t got = 0;
    while (got < size) {
      ssize_t n = ::pread(m_fd, out.data() + got, size - got, static_cast<off_t>(offset + got));
      if (n <= 0) {
        break;
      }
      got += static_cast<std::size_t>(n);
    }
    out.resize(got);
    return out;
  }

 private:
  int m_fd;
};

struct Layout {
  Format format = Format::yaml;
  std::uint64_t begin = 0, end = 0;  // the items: from the first item's first byte
  std::uint64_t first_line = 0;      // line of `begin`
  std::string trailer;               // after the items: kind, metadata
};

std::optional<Layout> find_layout(const Fd& fd, std::uint64_t size) {
  Layout l;
  std::string head = fd.read_at(0, k_json_head.size());
  std::string_view head_text = k_yaml_head;
  if (head.starts_with(k_yaml_head)) {
    l.format = Format::yaml;
    l.begin = k_yaml_head.size() - 2;  // the `- ` belongs to the first item
  } else if (head == k_json_head) {
    l.format = Format::json;
    head_text = k_json_head;
    l.begin = k_json_head.size() - 10;  // from the first item's `{` line
  } else {
    return std::nullopt;
  }
  l.first_line = 1 + std::count(head_text.begin(), head_text.begin() + l.begin, '\n');
  std::uint64_t tail_at = size > 4096 ? size - 4096 : 0;
  std::string tail = fd.read_at(tail_at, static_cast<std::size_t>(size - tail_at));
  std::size_t pos = tail.rfind(l.format == Format::yaml ? k_yaml_tail : k_json_tail);
  if (pos == std::string::npos) {
    return std::nullopt;
  }
  l.end = tail_at + pos + 1;
  l.trailer = tail.substr(pos + 1);
  if (l.end <= l.begin) {
    return std::nullopt;
  }
  return l;
}

// Whether every line of the trailer belongs to the List's own kind and metadata: another
// document or another top-level key after the items must go through the one-thread read.
bool trailer_is_list_tail(const Layout& l) {
  std::string_view rest = l.trailer;
  while (!rest.empty()) {
    std::string_view line = rest.substr(0, rest.find('\n'));
    rest.remove_prefix(std::min(rest.size(), line.size() + 1));
    bool ok = l.format == Format::yaml
                  ? line.empty() || line.starts_with("  ") || line == "kind: List" ||
                        line == "metadata:" || line == "metadata: {}"
                  : line.empty() || line.starts_with("        ") || line.starts_with("    ]") ||
                        line.starts_with("    }") || line == "}" ||
                        line.starts_with("    \"kind\": ") ||
                        line.starts_with("    \"metadata\": ");
    if (!ok) {
      return false;
    }
  }
  return true;
}

// The List's trailer must parse as the one-thread read would parse it.
bool trailer_parses(const Layout& l, const std::string& name) {
  if (!trailer_is_list_tail(l)) {
    return false;
  }
  std::string text = l.format == Format::json ? "{\"items\":[" + l.trailer : l.trailer;
  try {
    std::unique_ptr<EventSource> src = open_source(std::string_view(text), name);
    while (src->next().type != EventType::stream_end) {
    }
    return true;
  } catch (const InputError&) {
    return false;
  }
}

struct Part {
  ByteReader::Region region;
  std::uint64_t gap_newlines = 0;  // between this part and the next
  model::SnapshotBuilder out;
  std::vector<Diagnostic> diags;
  std::vector<model::ObjectRef> pods;
  std::uint64_t newlines = 0;
  std::size_t objects = 0;
  bool ok = false;
  bool changed = false;  // the file ended before the part did
};

// Item boundaries near each 1/n of the items; fewer parts when some are not found.
std::vector<Part> split(const Fd& fd, const Layout& l, unsigned n) {
  std::vector<Part> parts(1);
  parts[0].region.begin = l.begin;
  const std::uint64_t span = l.end - l.begin;
  for (unsigned k = 1; k < n; ++k) {
    std::uint64_t target = l.begin + span * k / n;
    std::string probe = fd.read_at(target, k_probe);
    std::string_view needle = l.format == Format::yaml ? "\n- " : k_json_gap;
    std::size_t at = probe.find(needle);
    if (at == std::string::npos) {
      continue;
    }
    std::uint64_t end = target + at + (l.format == Format::yaml ? 1 : k_json_comma);
    std::uint64_t next = target + at + (l.format == Format::yaml ? 1 : k_json_next);
    if (end <= parts.back().region.begin || next >= l.end) {
      continue;
    }
    parts.back().region.end = end;
    parts.back().gap_newlines = l.format == Format::yaml ? 0 : 1;
    parts.emplace_back().region.begin = next;
  }
  parts.back().region.end = l.end;
  for (Part& p : parts) {
    if (l.format == Format::json) {
      p.region.prefix = "[\n";
      p.region.suffix = "\n]";
    }
    p.region.yaml = l.format == Format::yaml;
  }
  return parts;
}

// Passes events through while checking the part is one document holding one sequence, and
// turns a syntax error into NotSplittable so that the one-thread read reports it.
class PartSource final : public EventSource {
 public:
  explicit PartSource(EventSource& src) : m_src(src) {}

  const Event& next() override {
    const Event* ev = nullptr;
    try {
      ev = &m_src.next();
    } catch (const InputError&) {
      throw NotSplittable{};
    }
    switch (ev->type) {
      case EventType::document_start:
        check(++m_documents == 1);
        break;
      case EventType::seq_start:
      case EventType::map_start:
        check(m_depth > 0 || (ev->type == EventType::seq_start && ++m_roots == 1));
        ++m_depth;
        break;
      case EventType::seq_end:
      case EventType::map_end:
        --m_depth;
        break;
      case EventType::scalar:
        check(m_depth > 0);
        break;
      case EventType::stream_end:
        m_ended = true;
        break;
      default:
        break;
    }
    return *ev;
  }
  // The skipped events lie inside the value, balanced: only its end changes the depth. The
  // source skips its own cheap way (JSON without marks or texts), not event by event.
  void skip_value_rest() override {
    try {
      m_src.skip_value_rest();
    } catch (const InputError&) {
      throw NotSplittable{};
    }
    --m_depth;
  }
  const std::string& file_name() const override { return m_src.file_name(); }
  bool ended() const { return m_ended; }

 private:
  static void check(bool ok) {
    if (!ok) {
      throw NotSplittable{};
    }
  }

  EventSource& m_src;
  int m_documents = 0, m_roots = 0, m_depth = 0;
  bool m_ended = false;
};

// Every part reads the one open file: a path opened again could be another file by now.
// `kubectl`: YAML goes through the kubectl reader; false when it declined the part, whose
// progress is then taken back for libyaml to read it again.
bool read_part_with(int fd, const std::string& path, Format format, const DecodeContext& parent,
                    Part& p, bool kubectl) {
  try {
    const int own = ::dup(fd);
    std::FILE* file = own < 0 ? nullptr : ::fdopen(own, "rb");
    if (file == nullptr) {
      if (own >= 0) {
        ::close(own);
      }
      return true;
    }
    std::atomic<std::uint64_t>* bytes = parent.progress ? &parent.progress->bytes : nullptr;
    auto in = std::make_unique<ByteReader>(file, path, p.region, bytes);
    const ByteReader& reader = *in;
    std::unique_ptr<EventSource> src = format == Format::json ? make_json_source(std::move(in))
                                       : kubectl ? make_kubectl_yaml_source(std::move(in))
                                                 : make_yaml_source(std::move(in));
    PartSource checked(*src);
    DecodeContext ctx{p.out, p.diags, parent.pods != nullptr ? &p.pods : nullptr,
                      parent.derive_pods, parent.progress};
    ctx.skip_objects = parent.skip_objects;
    ctx.content_identity = parent.content_identity;
    try {
      read_stream(checked, ctx);
    } catch (const ScanDeclined&) {
      if (bytes != nullptr) {
        bytes->fetch_sub(reader.file_counted(), std::memory_order_relaxed);
      }
      return false;
    }
    // The stream's end was handed over after the last byte was read, so these are final.
    p.ok = checked.ended() && reader.file_done() && !ctx.whole_stream_only;
    p.newlines = reader.file_newlines();
    p.objects = ctx.objects;
  } catch (const FileChanged&) {
    p.changed = true;
  } catch (...) {
    // NotSplittable, or anything else the one-thread read will meet and report itself.
    p.ok = false;
  }
  return true;
}

void read_part(int fd, const std::string& path, Format format, const DecodeContext& parent,
               Part& p) {
  if (!read_part_with(fd, path, format, parent, p, format == Format::yaml)) {
    p.out = model::SnapshotBuilder{};
    p.diags.clear();
    p.pods.clear();
    read_part_with(fd, path, format, parent, p, false);
  }
}

void read_parts(int fd, const std::string& path, Format format, const DecodeContext& ctx,
                std::vector<Part>& parts) {
  std::vector<std::thread> workers;
  for (std::size_t i = 1; i < parts.size(); ++i) {
    workers.emplace_back(read_part, fd, std::cref(path), format, std::cref(ctx),
                         std::ref(parts[i]));
  }
  read_part(fd, path, format, ctx, parts[0]);
  for (std::thread& t : workers) {
    t.join();
  }
}

// Copies of one object in two parts are merged or refused by comparing them, which only the
// one-thread read does: each part knows just its own objects.
bool repeats_objects(const std::vector<Part>& parts) {
  for (std::size_t i = 0; i < parts.size(); ++i) {
    for (std::size_t j = i + 1; j < parts.size(); ++j) {
      if (parts[i].out.shares_objects_with(parts[j].out)) {
        return true;
      }
    }
  }
  return false;
}

void join(const std::string& path, std::uint64_t first_line, std::vector<Part>& parts,
          DecodeContext& ctx) {
  // The pods (most of a dump's memory) are moved once into storage made for all of them, and
  // each part's is freed as soon as it is moved: a vector grown part by part would hold its
  // old storage, its new one and the later parts' all at once.
  std::size_t pods = ctx.out.pods().size();
  for (Part& p : parts) {
    pods += p.out.pods().size();
  }
  ctx.out.pods().reserve(pods);
  std::uint64_t line = first_line;
  for (Part& p : parts) {
    auto prefix_lines = static_cast<std::uint64_t>(
        std::count(p.region.prefix.begin(), p.region.prefix.end(), '\n'));
    auto delta = static_cast<std::uint32_t>(line - 1 - prefix_lines);
    p.out.shift_lines(path, delta);
    for (Diagnostic& d : p.diags) {
      if (d.loc.line != 0 && d.loc.file == path) {
        d.loc.line += delta;
      }
    }
    ctx.out.append(std::move(p.out));
    p.out = model::SnapshotBuilder();
    ctx.objects += p.objects;
    ctx.diags.insert(ctx.diags.end(), std::make_move_iterator(p.diags.begin()),
                     std::make_move_iterator(p.diags.end()));
    if (ctx.pods != nullptr) {
      ctx.pods->insert(ctx.pods->end(), p.pods.begin(), p.pods.end());
    }
    line += p.newlines + p.gap_newlines;
  }
}

}  // namespace

bool load_list_in_parts(const std::string& path, unsigned threads, DecodeContext& ctx,
                        std::uint64_t min_part) {
  if (threads == 0) {
    threads = std::max(1U, std::thread::hardware_concurrency());
  }
  threads = std::min(threads, k_max_parts);
  // O_NONBLOCK: a FIFO must not block here; it is not a regular file and is read as a stream.
  Fd fd(path);
  std::optional<FileStamp> before = fd.ok() ? fd.stamp() : std::nullopt;
  if (threads < 2 || !before || before->size < 2 * min_part) {
    return false;
  }
  std::optional<Layout> layout = find_layout(fd, before->size);
  if (!layout || !trailer_parses(*layout, path)) {
    return false;
  }
  auto n = static_cast<unsigned>(
      std::min<std::uint64_t>(threads, (layout->end - layout->begin) / min_part));
  std::vector<Part> parts = split(fd, *layout, n);
  if (parts.size() < 2) {
    return false;
  }
  std::uint64_t bytes_before = ctx.progress ? ctx.progress->bytes.load() : 0;
  read_parts(fd.get(), path, layout->format, ctx, parts);
  bool changed = fd.stamp() != before ||
                 std::any_of(parts.begin(), parts.end(), [](const Part& p) { return p.changed; });
  if (changed) {
    ctx.diags.push_back(changed_while_read(path));
    return true;
  }
  bool all_ok = std::all_of(parts.begin(), parts.end(), [](const Part& p) { return p.ok; });
  std::size_t diags = 0;
  for (const Part& p : parts) {
    diags += p.diags.size();
  }
  // Past the cap the one-thread read keeps the first ones of the whole file. An error may name
  // a line in its text ("already defined at line 14") that only the whole read numbers right:
  // a file with errors is read again on one thread, so every message is the same.
  const bool errors =
      std::any_of(parts.begin(), parts.end(), [](const Part& p) { return any_error(p.diags); });
  all_ok = all_ok && !errors && diags <= k_max_diagnostics_per_file && !repeats_objects(parts);
  std::uint64_t last_line = layout->first_line;
  for (const Part& p : parts) {
    last_line += p.newlines + p.gap_newlines;
  }
  if (!all_ok || last_line > UINT32_MAX) {
    if (ctx.progress != nullptr) {
      ctx.progress->bytes = bytes_before;
    }
    return false;
  }
  join(path, layout->first_line, parts, ctx);
  return true;
}

}  // namespace kpreempt::load
