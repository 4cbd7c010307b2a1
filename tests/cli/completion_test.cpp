// SPDX-License-Identifier: Apache-2.0
// Shell completion: the embedded scripts, the hidden name lister, the kubectl plugin name,
// and the scripts themselves driven in bash (also through a real terminal), zsh and fish.
#include "support/run.h"
#include "support/text.h"

#include "kpreempt/cli/cli.h"
#include "kpreempt/policy/policy.h"

#include <catch2/catch.hpp>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <thread>

namespace kpreempt::test {
namespace {

const std::string k_root = KPREEMPT_TESTDATA "/..";
const std::string k_bash_script = k_root + "/completions/kpreempt.bash";
const std::string k_zsh_script = k_root + "/completions/kpreempt.zsh";
const std::string k_fish_script = k_root + "/completions/kpreempt.fish";

std::string bin_dir() {
  std::string binary = KPREEMPT_BINARY;
  return binary.substr(0, binary.find_last_of('/'));
}

// Runs a shell command from the project root; stdout only.
Run sh(const std::string& command) {
  return run_shell("cd '" + k_root + "' && " + command);
}

bool have(const std::string& program) {
  return sh("command -v " + program + " >/dev/null 2>&1").code == 0;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  REQUIRE(in);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string quote(const std::string& word) {
  std::string q = "'";
  for (char c : word) {
    q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  }
  return q + "'";
}

// What the bash function offers for words[cword] (default: the last word), the words split
// as bash splits them (`--policy=x` is three words).
std::vector<std::string> bash_complete(const std::vector<std::string>& words, int cword = -1,
                                       const std::string& path_first = bin_dir()) {
  if (cword < 0) {
    cword = int(words.size()) - 1;
  }
  std::string args;
  for (const auto& w : words) {
    args += " " + quote(w);
  }
  Run r =
      sh("PATH='" + path_first + "':$PATH bash --norc --noprofile -c '" +
         "source \"$0\"; COMP_WORDS=(\"$@\"); COMP_CWORD=" + std::to_string(cword) +
         "; _kpreempt; " + "printf \"%s\\n\" \"${COMPREPLY[@]}\"' " + quote(k_bash_script) + args);
  REQUIRE(r.code == 0);
  auto out = lines(r.out);
  if (out.size() == 1 && out[0].empty()) {
    out.clear();
  }
  return out;
}

// One tmux server per terminal: a killed one may linger a moment.
int next_terminal_id() {
  static int count = 0;
  return ++count;
}

// An interactive shell in a detached tmux session on a server of its own (nothing of the
// user's tmux is touched), killed on destruction. The prompt is "$ ".
class Terminal {
 public:
  explicit Terminal(const std::string& shell)
      : m_tmux("env -u TMUX tmux -f /dev/null -L kpreempt-completion-" + std::to_string(getpid()) +
               "-" + std::to_string(next_terminal_id()) + " ") {
    std::string command =
        "env -i HOME=/nonexistent TERM=xterm INPUTRC=/dev/null PS1='$ ' "
        "PATH='" +
        bin_dir() + "':/usr/bin:/bin " + shell;
    m_started =
        sh(m_tmux + "new-session -d -x 160 -y 24 -s t -c " + quote(k_root) + " " + quote(command))
            .code == 0;
  }
  ~Terminal() { sh(m_tmux + "kill-server >/dev/null 2>&1"); }
  Terminal(const Terminal&) = delete;
  Terminal& operator=(const Terminal&) = delete;

  // Runs a command at the prompt; true once it has finished with status 0.
  bool run(const std::string& command) {
    if (!m_started || wait_for("$") != "$") {
      return false;
    }
    type(command + " && echo command-ok");
    sh(m_tmux + "send-keys -t t Enter");
    auto pane = wait_for_pane([](const std::vector<std::string>& p) {
      return p.size() >= 2 && p[p.size() - 2] == "command-ok" && p.back() == "$";
    });
    return pane.size() >= 2 && pane[pane.size() - 2] == "command-ok";
  }
  void type(const std::string& text) { sh(m_tmux + "send-keys -t t -l -- " + quote(text)); }
  void tab() { sh(m_tmux + "send-keys -t t Tab"); }

  // The last line once it ends with `want`, else whatever it is after about ten seconds (a
  // loaded machine can be slow to start a shell).
  std::string wait_for(const std::string& want) {
    auto pane = wait_for_pane([&](const std::vector<std::string>& p) {
      return !p.empty() && p.back().size() >= want.size() &&
             p.back().compare(p.back().size() - want.size(), want.size(), want) == 0;
    });
    return pane.empty() ? std::string() : pane.back();
  }

 private:
  // The pane's non-blank lines, right-trimmed, once `done` accepts them or time is up.
  template <typename Done>
  std::vector<std::string> wait_for_pane(Done done) {
    std::vector<std::string> pane;
    for (int i = 0; i < 100; ++i) {
      pane.clear();
      for (auto line : lines(sh(m_tmux + "capture-pane -p -t t").out)) {
        line.erase(line.find_last_not_of(' ') + 1);
        if (!line.empty()) {
          pane.push_back(line);
        }
      }
      if (done(pane)) {
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    return pane;
  }

  std::string m_tmux;
  bool m_started = false;
};

// The registry's policies, in its order: the scripts ask the binary for them.
std::vector<std::string> registry_policies() {
  std::vector<std::string> names;
  for (const kpreempt::policy::Entry& e : kpreempt::policy::all()) {
    names.emplace_back(e.name);
  }
  return names;
}

const std::vector<std::string> k_policies = registry_policies();

// A stand-in kpreempt whose __complete prints names that a shell would run if it evaluated
// them (Kubernetes names cannot hold them, but a dump is input and names are data). `marker`
// is the file such a run would create.
struct HostileLister {
  std::string dir, marker;
  HostileLister()
      : dir((std::filesystem::temp_directory_path() /
             ("kpreempt-hostile-" + std::to_string(getpid())))
                .string()),
        marker(dir + "-pwned") {
    std::filesystem::create_directories(dir);
    std::ofstream(dir + "/kpreempt")
        << "#!/bin/sh\n[ \"$1\" = __complete ] || exit 2\n"
        << "printf '%s\\n' 'ns/$(touch " << marker << ")' 'ns/`touch " << marker << "`' "
        << "'ns/web-0'\n";
    std::filesystem::permissions(dir + "/kpreempt", std::filesystem::perms::owner_all);
    std::filesystem::remove(marker);
  }
  ~HostileLister() {
    std::filesystem::remove_all(dir);
    std::filesystem::remove(marker);
  }
  HostileLister(const HostileLister&) = delete;
  HostileLister& operator=(const HostileLister&) = delete;
  bool ran() const { return std::filesystem::exists(marker); }
};

}  // namespace

TEST_CASE("completion prints the files in completions/ byte for byte", "[completion]") {
  for (const auto& [shell, path] :
       {std::pair{"bash", k_bash_script}, {"zsh", k_zsh_script}, {"fish", k_fish_script}}) {
    Run r = run_cli({"completion", shell});
    CHECK(r.code == 0);
    CHECK(r.out == read_file(path));
  }
}

TEST_CASE("completion refuses a shell it has no script for", "[completion]") {
  CHECK(run_cli({"completion", "tcsh"}).code == 2);
  CHECK(run_cli({"completion"}).code == 2);
}

TEST_CASE("the name lister is hidden from --help but completion is listed", "[completion]") {
  auto subs = subcommands(run_cli({"--help"}).out);
  CHECK(std::find(subs.begin(), subs.end(), "completion") != subs.end());
  CHECK(run_cli({"--help"}).out.find("__complete") == std::string::npos);
}

TEST_CASE("the name lister puts pending pods first for --pod and bound ones for --victim",
          "[completion]") {
  Run pods = run_binary("__complete pods -f testdata/demo/cluster.yaml", false);
  REQUIRE(pods.code == 0);
  auto pod_lines = lines(pods.out);
  REQUIRE(!pod_lines.empty());
  CHECK(pod_lines.front() == "ml/trainer-0");
  Run victims = run_binary("__complete victims -f testdata/demo/cluster.yaml", false);
  REQUIRE(victims.code == 0);
  auto victim_lines = lines(victims.out);
  CHECK(victim_lines.size() == pod_lines.size());
  CHECK(victim_lines.front() != "ml/trainer-0");
  CHECK(std::find(victim_lines.begin(), victim_lines.end(), "research/notebook-bob") <
        std::find(victim_lines.begin(), victim_lines.end(), "ml/trainer-0"));
}

TEST_CASE("the name lister prints nothing for a dump it cannot read", "[completion]") {
  Run r = run_binary("__complete pods -f testdata/no-such-dump.yaml", true);
  CHECK(r.code == 2);
  CHECK(r.out.empty());
}

TEST_CASE("invoked as kubectl-kpreempt the usage and errors name kubectl kpreempt",
          "[completion]") {
  std::ostringstream out, err;
  std::vector<const char*> help{"/usr/local/bin/kubectl-kpreempt", "explain", "--help"};
  CHECK(cli::run(int(help.size()), help.data(), out, err) == 0);
  CHECK(out.str().find("kubectl kpreempt explain [OPTIONS]") != std::string::npos);
  std::vector<const char*> bad{"kubectl-kpreempt", "explain", "-f", "x.yaml"};
  CHECK(cli::run(int(bad.size()), bad.data(), out, err) == 2);
  CHECK(err.str().rfind("kubectl kpreempt: error: ", 0) == 0);
}

TEST_CASE("the kubectl-kpreempt link in the build folder runs the same binary", "[completion]") {
  Run r = sh("'" + bin_dir() + "/kubectl-kpreempt' --help");
  CHECK(r.code == 0);
  CHECK(r.out.find("kubectl kpreempt") != std::string::npos);
  CHECK(sh("'" + bin_dir() + "/kubectl-kpreempt' --version").out == run_cli({"--version"}).out);
}

TEST_CASE("bash completes subcommands, options and their values", "[completion]") {
  using V = std::vector<std::string>;
  CHECK(bash_complete({"kpreempt", "ex"}) == V{"explain"});
  CHECK(bash_complete({"kpreempt", "explain", "--pol"}) == V{"--policy"});
  V explain_policies = k_policies;
  explain_policies.push_back("all");
  CHECK(bash_complete({"kpreempt", "explain", "--policy", ""}) == explain_policies);
  CHECK(bash_complete({"kpreempt", "explain", "--policy", "=", "ku"}) == V{"kueue"});
  CHECK(bash_complete({"kpreempt", "lint", "--policy", ""}) == k_policies);
  CHECK(bash_complete({"kpreempt", "explain", "-o", ""}) ==
        V{"text", "wide", "json", "yaml", "html"});
  CHECK(bash_complete({"kpreempt", "lint", "-o", ""}) ==
        V{"text", "json", "sarif", "github", "junit"});
  CHECK(bash_complete({"kpreempt", "check", "--output", ""}) == V{"text", "json", "junit"});
  CHECK(bash_complete({"kpreempt", "matrix", "-o", ""}) == V{"text", "json", "markdown"});
  CHECK(bash_complete({"kpreempt", "explain", "--color", "n"}) == V{"never"});
  CHECK(bash_complete({"kpreempt", "lint", "--fail-on", "w"}) == V{"warning"});
  CHECK(bash_complete({"kpreempt", "completion", ""}) == V{"bash", "zsh", "fish"});
  CHECK(bash_complete({"kpreempt", "lint", "q"}) == V{"queues"});
}

TEST_CASE("bash completes pod names from the -f dumps on the line", "[completion]") {
  auto pods =
      bash_complete({"kpreempt", "explain", "-f", "testdata/demo/cluster.yaml", "--pod", ""});
  REQUIRE(!pods.empty());
  CHECK(pods.front() == "ml/trainer-0");
  CHECK(bash_complete({"kpreempt", "explain", "--pod", "ml/tr", "--filename", "=",
                       "testdata/demo/cluster.yaml"},
                      3) == std::vector<std::string>{"ml/trainer-0"});
  auto victims = bash_complete({"kpreempt", "explain", "-f", "testdata/demo/cluster.yaml",
                                "--victim", "research/notebook-b"});
  CHECK(victims == std::vector<std::string>{"research/notebook-bob"});
  CHECK(bash_complete({"kpreempt", "explain", "--pod", ""}).empty());
}

TEST_CASE("kubectl_complete-kpreempt answers kubectl in its completion format", "[completion]") {
  std::string helper = "PATH='" + bin_dir() + "':$PATH completions/kubectl_complete-kpreempt ";
  CHECK(sh(helper + "ex").out == "explain\n:4\n");
  CHECK(sh(helper + "explain --policy=ku").out == "--policy=kueue\n:4\n");
  CHECK(sh(helper + "explain -f testdata/demo/cluster.yaml --pod ml/").out == "ml/trainer-0\n:4\n");
}

TEST_CASE("every long option of every subcommand is in the three completion scripts",
          "[completion]") {
  std::string zsh = read_file(k_zsh_script);
  std::string fish = read_file(k_fish_script);
  for (const auto& sub : subcommands(run_cli({"--help"}).out)) {
    Run options = sh("bash --norc --noprofile -c 'source \"$0\"; _kpreempt_options " + sub + "' " +
                     quote(k_bash_script));
    std::string bash = " " + options.out;
    std::set<std::string> in_help = long_flags(run_cli({sub, "--help"}).out);
    for (const auto& flag : in_help) {
      INFO(sub << " " << flag);
      CHECK(std::regex_search(bash, std::regex("\\s" + flag + "[=\\s]")));
      CHECK(std::regex_search(zsh, std::regex(flag + "[=\\[}]")));
      CHECK(std::regex_search(fish, std::regex("-l " + flag.substr(2) + "\\s")));
    }
    // And nothing the subcommand does not have (the bash list is the one the others follow).
    for (const auto& flag : long_flags(options.out)) {
      INFO(sub << " " << flag << " is completed but not in --help");
      CHECK(in_help.count(flag) == 1);
    }
  }
}

TEST_CASE("the zsh script parses and registers itself with compinit", "[completion]") {
  if (!have("zsh")) {
    SUCCEED("zsh is not installed: skipped");
    return;
  }
  CHECK(sh("zsh -n " + quote(k_zsh_script)).code == 0);
  Run r =
      sh("zsh -f -c 'autoload -U compinit && compinit -u -D && source \"$0\" && "
         "print -r -- $_comps[kpreempt] $_comps[kubectl-kpreempt]' " +
         quote(k_zsh_script));
  CHECK(r.out == "_kpreempt _kpreempt\n");
}

TEST_CASE("fish completes options, values and pod names", "[completion]") {
  if (!have("fish")) {
    SUCCEED("fish is not installed: skipped");
    return;
  }
  CHECK(sh("fish --no-execute " + quote(k_fish_script)).code == 0);
  auto complete = [](const std::string& line) {
    Run r = sh("PATH='" + bin_dir() + "':$PATH fish --no-config -c 'source $argv[1]; " +
               "complete -C $argv[2] | string replace -r \"\\t.*\" \"\"' " + quote(k_fish_script) +
               " " + quote(line));
    return lines(r.out);
  };
  using V = std::vector<std::string>;
  CHECK(complete("kpreempt explain --pol") == V{"--policy"});
  CHECK(complete("kpreempt matrix -o m") == V{"markdown"});
  CHECK(complete("kpreempt explain -f testdata/demo/cluster.yaml --pod ml/") == V{"ml/trainer-0"});
}

TEST_CASE("typing kpreempt ex<TAB> --pol<TAB> in an interactive bash completes the line",
          "[completion]") {
  if (!have("tmux")) {
    SUCCEED("tmux is not installed: skipped");
    return;
  }
  Terminal term("bash --norc --noprofile");
  REQUIRE(term.run("source completions/kpreempt.bash"));
  term.type("kpreempt ex");
  term.tab();
  CHECK(term.wait_for("kpreempt explain") == "$ kpreempt explain");
  term.type("--pol");  // after the space the completion added
  term.tab();
  CHECK(term.wait_for("kpreempt explain --policy") == "$ kpreempt explain --policy");
  term.type("default -f testdata/demo/cluster.yaml --pod ml/");
  term.tab();
  CHECK(term.wait_for("--pod ml/trainer-0") ==
        "$ kpreempt explain --policy default -f testdata/demo/cluster.yaml --pod ml/trainer-0");
}

TEST_CASE("typing kpreempt ex<TAB> --pol<TAB> in an interactive zsh completes the line",
          "[completion]") {
  if (!have("tmux") || !have("zsh")) {
    SUCCEED("tmux or zsh is not installed: skipped");
    return;
  }
  Terminal term("zsh -f");
  REQUIRE(term.run("autoload -U compinit && compinit -u -D && source completions/kpreempt.zsh"));
  term.type("kpreempt ex");
  term.tab();
  CHECK(term.wait_for("kpreempt explain") == "$ kpreempt explain");
  term.type("--pol");  // after the space the completion added
  term.tab();
  CHECK(term.wait_for("kpreempt explain --policy=") == "$ kpreempt explain --policy=");
  term.type("default -f testdata/demo/cluster.yaml --pod ml/");
  term.tab();
  CHECK(term.wait_for("--pod ml/trainer-0").find("--policy=default -f") != std::string::npos);
}

}  // namespace kpreempt::test

namespace kpreempt::test {

TEST_CASE("the policy lister prints the registry's policies, no dump needed", "[completion]") {
  Run r = run_cli({"__complete", "policies"});
  CHECK(r.code == 0);
  CHECK(lines(r.out) == registry_policies());
}

TEST_CASE("bash offers hostile names quoted and never runs them", "[completion]") {
  HostileLister lister;
  auto names =
      bash_complete({"kpreempt", "explain", "-f", "dump.yaml", "--pod", ""}, -1, lister.dir);
  CHECK_FALSE(lister.ran());
  CHECK(names == std::vector<std::string>{"ns/\\$\\(touch\\ " + lister.marker + "\\)",
                                          "ns/\\`touch\\ " + lister.marker + "\\`", "ns/web-0"});
  CHECK(bash_complete({"kpreempt", "explain", "-f", "dump.yaml", "--pod", "ns/w"}, -1,
                      lister.dir) == std::vector<std::string>{"ns/web-0"});
  CHECK_FALSE(lister.ran());
}

TEST_CASE("fish offers hostile names as they are and never runs them", "[completion]") {
  if (!have("fish")) {
    SUCCEED("fish is not installed: skipped");
    return;
  }
  HostileLister lister;
  Run r = sh("PATH='" + lister.dir + "':$PATH fish --no-config -c 'source $argv[1]; " +
             "complete -C $argv[2] | string replace -r \"\\t.*\" \"\"' " + quote(k_fish_script) +
             " " + quote("kpreempt explain -f dump.yaml --pod ns/"));
  CHECK_FALSE(lister.ran());
  CHECK(lines(r.out).size() == 3);
  CHECK(r.out.find("ns/web-0") != std::string::npos);
}

}  // namespace kpreempt::test
