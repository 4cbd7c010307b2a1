// SPDX-License-Identifier: Apache-2.0
// `kpreempt matrix`: which PriorityClass may preempt which, per policy, from the classes
// alone (values, preemptionPolicy, toleration and YuniKorn annotations).
#include "cli/context.h"
#include "cli/subcommands.h"
#include "render/table.h"

#include "kpreempt/exit_code.h"
#include "kpreempt/policy/toleration.h"

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <memory>

namespace kpreempt::cli {
namespace {

constexpr std::string_view k_yunikorn_allow = "yunikorn.apache.org/allow-preemption";
constexpr std::string_view k_legend =
    "yes: may preempt; no: may not (victim priority too high for the policy, or preemptor "
    "preemptionPolicy Never); after Ns: once the victim has been scheduled N seconds; never: "
    "the victim tolerates this preemptor forever; last: only when no other victim will do";

struct MatrixOptions {
  Inputs inputs;
  std::string output = "text";
  bool system_classes = false;
};

struct Class {
  std::string name;
  std::int32_t value = 0;
  bool never = false;  // preemptionPolicy: Never
  bool built_in = false;
  const model::PriorityClass* object = nullptr;  // null for built-ins not in the input
};

enum class Verdict { yes, no, after, never, last };

struct Cell {
  Verdict verdict = Verdict::no;
  std::int64_t seconds = 0;  // after only
};

struct Matrix {
  std::string policy, summary;
  std::vector<std::vector<Cell>> cells;  // [preemptor][victim], in class order
  std::vector<std::string> notes;
};

std::string_view verdict_word(Verdict v) {
  constexpr std::array<std::string_view, 5> k_words{"yes", "no", "after", "never", "last"};
  return k_words[static_cast<std::size_t>(v)];
}

std::string cell_text(const Cell& c) {
  return c.verdict == Verdict::after ? fmt::format("after {}s", c.seconds)
                                     : std::string(verdict_word(c.verdict));
}

bool has_annotation(const model::PriorityClass* pc, std::string_view prefix) {
  return pc != nullptr && std::any_of(pc->annotations.begin(), pc->annotations.end(),
                                      [&](const auto& kv) { return kv.first.starts_with(prefix); });
}

// The input's classes, plus the built-in system classes when a pod names them (or when asked),
// highest value first; ties by name so the table is stable.
std::vector<Class> classes_of(const model::Snapshot& snap, bool with_system) {
  std::vector<Class> out;
  for (const model::PriorityClass& pc : snap.priority_classes()) {
    out.push_back({pc.name, pc.value, pc.preemption_policy == "Never", false, &pc});
  }
  const std::array<std::pair<std::string_view, std::int32_t>, 2> built_ins{
      {{"system-node-critical", model::k_system_node_critical},
       {"system-cluster-critical", model::k_system_cluster_critical}}};
  for (const auto& [name, value] : built_ins) {
    bool named = std::any_of(snap.pods().begin(), snap.pods().end(),
                             [&](const model::Pod& p) { return p.priority_class_name == name; });
    // find_priority_class resolves built-ins the dump lacks; look at the input itself.
    bool in_input =
        std::any_of(out.begin(), out.end(), [&](const Class& c) { return c.name == name; });
    if ((with_system || named) && !in_input) {
      out.push_back({std::string(name), value, false, true, nullptr});
    }
  }
  std::stable_sort(out.begin(), out.end(), [](const Class& a, const Class& b) {
    return a.value != b.value ? a.value > b.value : a.name < b.name;
  });
  return out;
}

// DefaultPreemption: only strictly lower priorities, and never for a Never preemptor.
Cell default_cell(const Class& p, const Class& v) {
  return {p.never || p.value <= v.value ? Verdict::no : Verdict::yes, 0};
}

// PreemptionToleration's ExemptedFromPreemption for a victim that has been scheduled; a
// victim not yet scheduled (no PodScheduled=True) is protected even with 0 seconds.
Cell toleration_cell(const Class& p, const Class& v) {
  Cell base = default_cell(p, v);
  if (base.verdict == Verdict::no || v.object == nullptr) {
    return base;
  }
  auto parsed = policy::parse_toleration_policy(*v.object);
  if (!parsed.policy || p.value >= parsed.policy->minimum_preemptable_priority) {
    return base;  // a parse error voids the whole policy
  }
  std::int64_t seconds = parsed.policy->toleration_seconds;
  if (seconds < 0) {
    return {Verdict::never, 0};
  }
  return seconds == 0 ? base : Cell{Verdict::after, seconds};
}

// YuniKorn: candidates need priority <= the ask's (equal may go), a Never pod preempts no
// one, and a class annotated allow-preemption "false" only orders its pods last.
Cell yunikorn_cell(const Class& p, const Class& v) {
  if (p.never || v.value > p.value) {
    return {Verdict::no, 0};
  }
  const std::string* allow =
      v.object == nullptr ? nullptr : model::find(v.object->annotations, k_yunikorn_allow);
  return {allow != nullptr && *allow == "false" ? Verdict::last : Verdict::yes, 0};
}

std::vector<std::string> toleration_notes(const std::vector<Class>& classes) {
  std::vector<std::string> notes;
  for (const Class& c : classes) {
    if (has_annotation(c.object, policy::k_toleration_legacy_prefix)) {
      notes.push_back(fmt::format("{}: keys under {} are ignored since scheduler-plugins v0.25.7",
                                  c.name, policy::k_toleration_legacy_prefix));
    }
    if (!has_annotation(c.object, policy::k_toleration_prefix)) {
      continue;
    }
    auto parsed = policy::parse_toleration_policy(*c.object);
    if (!parsed.policy) {
      notes.push_back(fmt::format("{}: toleration ignored, {} \"{}\": {}", c.name, parsed.key,
                                  parsed.value, parsed.error));
    }
  }
  notes.emplace_back(
      "after and never protect only from preemptors below the class's "
      "minimum-preemptable-priority; the window starts at the victim's "
      "PodScheduled time");
  return notes;
}

Matrix build(std::string_view policy_name, Cell (*cell)(const Class&, const Class&),
             const std::vector<Class>& classes) {
  const policy::Entry* entry = policy::find(policy_name);
  Matrix m{std::string(policy_name), entry ? std::string(entry->summary) : "", {}, {}};
  for (const Class& p : classes) {
    std::vector<Cell> row;
    for (const Class& v : classes) {
      row.push_back(cell(p, v));
    }
    m.cells.push_back(std::move(row));
  }
  return m;
}

std::vector<Matrix> matrices(const std::vector<Class>& classes) {
  std::vector<Matrix> out{build("default", default_cell, classes)};
  auto annotated = [&](std::string_view prefix) {
    return std::any_of(classes.begin(), classes.end(),
                       [&](const Class& c) { return has_annotation(c.object, prefix); });
  };
  if (annotated("preemption-toleration.")) {
    out.push_back(build("toleration", toleration_cell, classes));
    out.back().notes = toleration_notes(classes);
  }
  if (annotated(k_yunikorn_allow)) {
    out.push_back(build("yunikorn", yunikorn_cell, classes));
    out.back().notes = {
        "equal priority may be preempted; queue guarantees, fences and priority offsets also "
        "decide, and a pod's own allow-preemption annotation overrides its class"};
  }
  return out;
}

std::string row_label(const Class& c) {
  return fmt::format("{} ({}{})", c.name, c.value, c.never ? ", Never" : "");
}

void print_text(const std::vector<Class>& classes, const std::vector<Matrix>& all,
                std::ostream& out) {
  for (const Matrix& m : all) {
    out << m.policy << ": " << m.summary << '\n';
    std::vector<std::string> header{"PREEMPTOR \\ VICTIM"};
    for (const Class& c : classes) {
      header.push_back(c.name);
    }
    render::Table table(std::move(header));
    for (std::size_t i = 0; i < classes.size(); ++i) {
      std::vector<std::string> row{row_label(classes[i])};
      for (const Cell& c : m.cells[i]) {
        row.push_back(cell_text(c));
      }
      table.add(std::move(row));
    }
    table.print(out, 2);
    for (const std::string& note : m.notes) {
      out << "  note: " << note << '\n';
    }
    out << '\n';
  }
  out << k_legend << '\n';
}

void print_markdown(const std::vector<Class>& classes, const std::vector<Matrix>& all,
                    std::ostream& out) {
  for (const Matrix& m : all) {
    out << "### " << m.policy << ": " << m.summary << "\n\n| preemptor \\ victim |";
    for (const Class& c : classes) {
      out << ' ' << c.name << " |";
    }
    out << "\n|---|";
    for (std::size_t i = 0; i < classes.size(); ++i) {
      out << "---|";
    }
    out << '\n';
    for (std::size_t i = 0; i < classes.size(); ++i) {
      out << "| **" << classes[i].name << "** (" << classes[i].value
          << (classes[i].never ? ", Never" : "") << ") |";
      for (const Cell& c : m.cells[i]) {
        out << ' ' << cell_text(c) << " |";
      }
      out << '\n';
    }
    out << '\n';
    for (const std::string& note : m.notes) {
      out << "- " << note << '\n';
    }
    out << (m.notes.empty() ? "" : "\n");
  }
  out << "_" << k_legend << "_\n";
}

void print_json(const std::vector<Class>& classes, const std::vector<Matrix>& all,
                std::ostream& out) {
  nlohmann::ordered_json doc;
  doc["classes"] = nlohmann::ordered_json::array();
  for (const Class& c : classes) {
    doc["classes"].push_back({{"name", c.name},
                              {"value", c.value},
                              {"preemptionPolicy", c.never ? "Never" : "PreemptLowerPriority"},
                              {"builtIn", c.built_in}});
  }
  doc["tables"] = nlohmann::ordered_json::array();
  for (const Matrix& m : all) {
    nlohmann::ordered_json rows = nlohmann::ordered_json::array();
    for (std::size_t i = 0; i < classes.size(); ++i) {
      nlohmann::ordered_json cells = nlohmann::ordered_json::array();
      for (std::size_t j = 0; j < classes.size(); ++j) {
        const Cell& c = m.cells[i][j];
        nlohmann::ordered_json cell{{"victim", classes[j].name},
                                    {"verdict", verdict_word(c.verdict)},
                                    {"text", cell_text(c)}};
        if (c.verdict == Verdict::after) {
          cell["afterSeconds"] = c.seconds;
        }
        cells.push_back(std::move(cell));
      }
      rows.push_back({{"preemptor", classes[i].name}, {"cells", std::move(cells)}});
    }
    doc["tables"].push_back(
        {{"policy", m.policy}, {"summary", m.summary}, {"rows", rows}, {"notes", m.notes}});
  }
  out << doc.dump(2) << '\n';
}

int run_matrix(const MatrixOptions& o, const Streams& io) {
  auto loaded = load_inputs(o.inputs, io);
  if (!loaded) {
    return k_exit_input;
  }
  if (loaded->snapshot.priority_classes().empty()) {
    throw UsageError("no PriorityClass in the input");
  }
  std::vector<Class> classes = classes_of(loaded->snapshot, o.system_classes);
  std::vector<Matrix> all = matrices(classes);
  if (o.output == "json") {
    print_json(classes, all, io.out);
  } else if (o.output == "markdown") {
    print_markdown(classes, all, io.out);
  } else {
    print_text(classes, all, io.out);
  }
  io.out.flush();
  release_at_exit(*loaded);
  return k_exit_ok;
}

}  // namespace

void add_matrix(CLI::App& app, const Streams& io, int& exit_code) {
  auto o = std::make_shared<MatrixOptions>();
  auto* cmd = app.add_subcommand(
      "matrix", "tabulate which PriorityClass may preempt which, under each policy");
  cmd->add_option("-f,--filename", o->inputs.files,
                  "PriorityClasses (or a whole dump): YAML or JSON file, folder, or - for stdin")
      ->required();
  cmd->add_flag("-R,--recursive", o->inputs.recursive, "read folders given with -f recursively");
  add_cache_flags(*cmd, o->inputs);
  // Dumps rarely include the built-in classes, yet they preempt everything else.
  cmd->add_flag("--system-classes", o->system_classes,
                "add system-node-critical and system-cluster-critical even when no pod names "
                "them");
  cmd->add_option("-o,--output", o->output, "text, json or markdown")
      ->check(CLI::IsMember({"text", "json", "markdown"}));
  cmd->callback([o, io, &exit_code] { exit_code = run_matrix(*o, io); });
}

}  // namespace kpreempt::cli
