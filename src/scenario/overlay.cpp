// SPDX-License-Identifier: Apache-2.0
// Configuration versions for `kpreempt diff`: read from disk or from git, each on its own.
#include "kpreempt/scenario/overlay.h"

#include "kpreempt/load/load.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <unordered_map>

extern char** environ;

namespace kpreempt::scenario {
namespace {

// A git file of more than this is not configuration; reading stops there.
constexpr std::size_t k_max_git_bytes = std::size_t{256} << 20;

struct Captured {
  std::string out;
  int status = -1;  // the exit status, -1 when git could not be run
  std::string error;
};

// Runs git with `args` (an argv, never through a shell: revisions and paths come from the
// command line and may hold anything) and captures its standard output.
Captured run_git(const std::vector<std::string>& args) {
  Captured c;
  std::array<int, 2> pipe_fds{};
  if (::pipe(pipe_fds.data()) != 0) {
    c.error = std::strerror(errno);
    return c;
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], STDOUT_FILENO);
  posix_spawn_file_actions_addclose(&actions, pipe_fds[0]);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
  std::vector<std::string> argv_text{"git", "--no-pager"};
  argv_text.insert(argv_text.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& a : argv_text) {
    argv.push_back(a.data());
  }
  argv.push_back(nullptr);
  pid_t pid = 0;
  const int spawned = posix_spawnp(&pid, "git", &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(pipe_fds[1]);
  if (spawned != 0) {
    ::close(pipe_fds[0]);
    c.error = fmt::format("cannot run git: {}", std::strerror(spawned));
    return c;
  }
  std::array<char, 1 << 16> buf{};
  for (;;) {
    const ssize_t n = ::read(pipe_fds[0], buf.data(), buf.size());
    if (n <= 0) {
      break;
    }
    if (c.out.size() < k_max_git_bytes) {
      c.out.append(buf.data(), static_cast<std::size_t>(n));
    }
  }
  ::close(pipe_fds[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  c.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  if (c.out.size() >= k_max_git_bytes) {
    c.status = -1;
    c.error = "more than 256 MiB";
  }
  return c;
}

std::string kind_of_key(const std::string& key) {
  const std::size_t at = key.find('/') + 1;
  return key.substr(at, key.find('/', at) - at);
}

std::string name_of_key(const std::string& key) {
  return key.substr(key.rfind('/') + 1);
}

// A version's objects as written, by key (the first copy of a key, as the loader keeps it).
using ScannedIndex = std::unordered_map<std::string, const load::ScannedObject*>;

ScannedIndex index_scanned(const ConfigVersion& v) {
  ScannedIndex out;
  for (const load::ScannedObject& o : v.scanned) {
    out.emplace(load::object_key(o), &o);
  }
  return out;
}

// Where head's copy of the object `key` first differs from base's.
std::optional<SourceLoc> changed_line(const ScannedIndex& base, const ScannedIndex& head,
                                      const std::string& key) {
  const auto b = base.find(key);
  const auto h = head.find(key);
  return b != base.end() && h != head.end() ? load::changed_line(*b->second, *h->second)
                                            : std::nullopt;
}

// Whether `file`, listed under the folder `dir`, is in one of its sub-folders.
bool in_sub_folder(std::string dir, const std::string& file) {
  while (dir.size() > 1 && dir.back() == '/') {
    dir.pop_back();
  }
  const std::string rest = dir == "." ? file : file.substr(std::min(file.size(), dir.size() + 1));
  return rest.find('/') != std::string::npos;
}

bool config_file(const std::string& path) {
  return path.ends_with(".yaml") || path.ends_with(".yml") || path.ends_with(".json");
}

}  // namespace

std::unordered_set<std::string> ConfigVersion::keys() const {
  std::unordered_set<std::string> out;
  for (const auto& o : objects) {
    out.insert(o.key);
  }
  return out;
}

void load_config(const std::vector<ConfigInput>& inputs, bool recursive, bool content_identity,
                 model::SnapshotBuilder& out, std::vector<Diagnostic>& diags) {
  load::LoadOptions opts{recursive};
  opts.content_identity = content_identity;
  for (const ConfigInput& in : inputs) {
    if (in.text) {
      load::load_buffer(*in.text, in.path, opts, out, diags);
    } else {
      load::load_path(in.path, opts, out, diags);
    }
  }
}

ConfigVersion read_config(const std::vector<ConfigInput>& inputs, bool recursive,
                          std::vector<Diagnostic>& diags) {
  model::SnapshotBuilder builder;
  load_config(inputs, recursive, true, builder, diags);
  ConfigVersion v;
  v.objects = builder.seen_objects();
  std::vector<Diagnostic> again;  // the load above said them
  for (const ConfigInput& in : inputs) {
    if (in.text) {
      load::scan_buffer(*in.text, in.path, v.scanned, again);
    } else {
      load::scan_path(in.path, load::LoadOptions{recursive}, v.scanned, again);
    }
  }
  std::vector<Diagnostic> build_diags;  // the overlaid load reports them, with the cluster
  v.snapshot = std::move(builder).build(build_diags);
  return v;
}

std::vector<ConfigInput> config_from_git(const std::string& ref,
                                         const std::vector<std::string>& paths, bool recursive,
                                         std::vector<Diagnostic>& diags) {
  std::vector<ConfigInput> out;
  for (const std::string& path : paths) {
    // "--" keeps a path that starts with "-" a path.
    Captured listed = run_git({"ls-tree", "-r", "-z", "--name-only", ref, "--", path});
    if (listed.status != 0) {
      diags.push_back({Severity::error, SourceLoc{},
                       listed.error.empty()
                           ? fmt::format("git ls-tree {} -- {} failed: is {} a revision of the "
                                         "repository in this folder?",
                                         ref, path, ref)
                           : fmt::format("--base-ref: {}", listed.error)});
      continue;
    }
    std::size_t found = 0;
    for (std::size_t at = 0; at < listed.out.size();) {
      std::size_t end = listed.out.find('\0', at);
      end = end == std::string::npos ? listed.out.size() : end;
      std::string file = listed.out.substr(at, end - at);
      at = end + 1;
      if (file != path && (!config_file(file) || (!recursive && in_sub_folder(path, file)))) {
        continue;  // in a folder, only what -f would read there
      }
      // ls-tree lists paths relative to this folder; "REF:./path" reads them from here too.
      Captured shown = run_git({"show", fmt::format("{}:./{}", ref, file)});
      if (shown.status != 0) {
        diags.push_back({Severity::error, SourceLoc{},
                         fmt::format("git show {}:{} failed{}", ref, file,
                                     shown.error.empty() ? "" : ": " + shown.error)});
        continue;
      }
      out.push_back(ConfigInput{fmt::format("{}:{}", ref, file), std::move(shown.out)});
      ++found;
    }
    if (found == 0 && listed.status == 0) {
      diags.push_back(
          {Severity::warning, SourceLoc{},
           fmt::format("{} holds no {} at revision {}", path, "YAML or JSON file", ref)});
    }
  }
  return out;
}

std::string object_of_key(const std::string& key) {
  // "group/Kind/namespace/name": the group goes, an empty namespace too.
  const std::size_t kind_at = key.find('/') + 1;
  const std::size_t ns_at = key.find('/', kind_at) + 1;
  const std::size_t name_at = key.find('/', ns_at) + 1;
  const std::string kind = key.substr(kind_at, ns_at - kind_at - 1);
  const std::string ns = key.substr(ns_at, name_at - ns_at - 1);
  const std::string name = key.substr(name_at);
  return ns.empty() ? fmt::format("{}/{}", kind, name) : fmt::format("{}/{}/{}", kind, ns, name);
}

// Objects only in base are removed, only in head added, in both with another identity
// (content, or uid) changed.
std::vector<render::ConfigChange> config_changes(const ConfigVersion& base,
                                                 const ConfigVersion& head) {
  const ScannedIndex base_index = index_scanned(base);
  const ScannedIndex head_index = index_scanned(head);
  std::vector<render::ConfigChange> out;
  auto change = [](render::ConfigChangeKind k, const model::SnapshotBuilder::SeenEntry& e) {
    return render::ConfigChange{k, kind_of_key(e.key), object_of_key(e.key), name_of_key(e.key),
                                e.loc};
  };
  auto b = base.objects.begin();
  auto h = head.objects.begin();
  while (b != base.objects.end() || h != head.objects.end()) {
    if (h == head.objects.end() || (b != base.objects.end() && b->key < h->key)) {
      out.push_back(change(render::ConfigChangeKind::removed, *b++));
    } else if (b == base.objects.end() || h->key < b->key) {
      out.push_back(change(render::ConfigChangeKind::added, *h++));
    } else {
      if (b->identity != h->identity) {
        out.push_back(change(render::ConfigChangeKind::changed, *h));
        if (auto line = changed_line(base_index, head_index, h->key)) {
          out.back().loc = *line;
        }
      }
      ++b;
      ++h;
    }
  }
  return out;
}

bool class_value_changed(const ConfigVersion& base, const ConfigVersion& head) {
  for (const model::PriorityClass& h : head.snapshot.priority_classes()) {
    const model::PriorityClass* b = base.snapshot.find_priority_class(h.name);
    if (b != nullptr && b->value != h.value) {
      return true;
    }
  }
  return false;
}

}  // namespace kpreempt::scenario
