// SPDX-License-Identifier: Apache-2.0
#include "cli/pager.h"

#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string_view>

namespace kpreempt::cli {
namespace {

// Columns assumed on a terminal that says nothing of its size.
constexpr std::size_t k_default_columns = 80;

std::size_t parse_columns(const char* text) {
  if (text == nullptr || *text == '\0') {
    return 0;
  }
  char* end = nullptr;
  const unsigned long n = std::strtoul(text, &end, 10);
  return *end == '\0' ? static_cast<std::size_t>(n) : 0;
}

}  // namespace

std::string pager_command(bool stdout_tty, const char* kpreempt_pager, const char* pager) {
  if (!stdout_tty) {
    return {};
  }
  const char* chosen = kpreempt_pager != nullptr ? kpreempt_pager
                       : pager != nullptr        ? pager
                                                 : "less -FRX";
  const std::string_view command(chosen);
  if (command.find_first_not_of(" \t") == std::string_view::npos || command == "cat") {
    return {};
  }
  return std::string(command);
}

std::size_t output_width(bool stdout_tty) {
  if (!stdout_tty) {
    return 0;
  }
  winsize size{};
  if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_col > 0) {
    return size.ws_col;
  }
  const std::size_t columns = parse_columns(std::getenv("COLUMNS"));
  return columns > 0 ? columns : k_default_columns;
}

std::string pager_for(bool wide) {
  if (!wide) {
    return {};
  }
  return pager_command(isatty(STDOUT_FILENO) == 1, std::getenv("KPREEMPT_PAGER"),
                       std::getenv("PAGER"));
}

void with_pager(const std::string& command, const Streams& io,
                const std::function<void(std::ostream&)>& render) {
  if (command.empty()) {
    render(io.out);
    return;
  }
  std::ostringstream text;
  render(text);
  io.out.flush();
  FILE* pipe = popen(command.c_str(), "w");
  if (pipe == nullptr) {
    io.out << text.str();
    return;
  }
  // A reader who quits the pager early closes the pipe: the rest is not wanted, which is no
  // error of kpreempt's.
  auto* previous = std::signal(SIGPIPE, SIG_IGN);
  const std::string body = text.str();
  (void)std::fwrite(body.data(), 1, body.size(), pipe);
  const int status = pclose(pipe);
  std::signal(SIGPIPE, previous);
  // The shell could not find or run the pager (127, 126): the text is not lost for it.
  if (status == -1 ||
      (WIFEXITED(status) && (WEXITSTATUS(status) == 127 || WEXITSTATUS(status) == 126))) {
    io.out << body;
  }
}

}  // namespace kpreempt::cli
