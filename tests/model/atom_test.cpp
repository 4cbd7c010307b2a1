// SPDX-License-Identifier: Apache-2.0
// Atoms: one copy per text, compared and ordered as the strings they hold.

#include "kpreempt/model/atom.h"

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <sstream>
#include <thread>
#include <vector>

using kpreempt::model::Atom;

TEST_CASE("equal texts are one atom, from any kind of string", "[model]") {
  const std::string text = "node.kubernetes.io/not-ready";
  const Atom a(text);
  const Atom b(std::string_view("node.kubernetes.io/not-ready"));
  const Atom c("node.kubernetes.io/not-ready");
  CHECK(a == b);
  CHECK(a.identity() == b.identity());
  CHECK(b.identity() == c.identity());
  CHECK(a.str() == text);
  CHECK(a == text);
  CHECK(text == a);
  CHECK(a == "node.kubernetes.io/not-ready");
  CHECK(a != Atom("node.kubernetes.io/unreachable"));
}

TEST_CASE("the empty atom is the default one", "[model]") {
  Atom a("x");
  CHECK_FALSE(a.empty());
  a.clear();
  CHECK(a.empty());
  CHECK(a == Atom());
  CHECK(Atom("") == Atom());
  CHECK(Atom().str().empty());
  CHECK(std::string_view(Atom().c_str()).empty());
}

TEST_CASE("atoms order by their text, not by where they are held", "[model]") {
  // Interned in the opposite order of the text order.
  std::vector<Atom> atoms{Atom("zeta-9"), Atom("mid-5"), Atom("alpha-1"), Atom("alpha-10")};
  std::sort(atoms.begin(), atoms.end());
  CHECK(atoms[0] == "alpha-1");
  CHECK(atoms[1] == "alpha-10");
  CHECK(atoms[2] == "mid-5");
  CHECK(atoms[3] == "zeta-9");
  CHECK(Atom("b") > std::string_view("a"));
  CHECK(Atom("a") < std::string("b"));
}

TEST_CASE("atoms print and join like strings", "[model]") {
  const Atom ns("team-a");
  CHECK(ns + "/" + "pod" == "team-a/pod");
  CHECK(std::string("x/") + ns == "x/team-a");
  CHECK(fmt::format("[{:>8}]", ns) == "[  team-a]");
  std::ostringstream out;
  out << ns;
  CHECK(out.str() == "team-a");
  CHECK(ns.starts_with("team"));
  CHECK(ns.substr(5) == "a");
}

TEST_CASE("threads interning the same texts get the same atoms", "[model]") {
  constexpr int k_texts = 2000;
  std::vector<Atom> first(k_texts), second(k_texts);
  auto fill = [](std::vector<Atom>& out) {
    for (int i = 0; i < k_texts; ++i) {
      out[static_cast<std::size_t>(i)] = Atom(fmt::format("atom-test-text-{}", i));
    }
  };
  std::thread other(fill, std::ref(second));
  fill(first);
  other.join();
  for (std::size_t i = 0; i < first.size(); ++i) {
    CHECK(first[i].identity() == second[i].identity());
  }
}
