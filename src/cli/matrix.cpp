// SPDX-License-Identifier: Apache-2.0
// `kpreempt matrix`: which PriorityClass may preempt which, per policy, from the classes
// alone; each policy's ClassRules judge the cells.
#include "cli/context.h"
#include "cli/subcommands.h"
#include "render/table.h"

#include "kpreempt/exit_code.h"
#include "kpreempt/policy/policy.h"

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <memory>

namespace kpreempt::cli {
namespace {

constexpr std::string_view k_legend =
    "yes: may preempt; no: may not (victim priority too high for the policy, or preemptor "
    "preemptionPolicy Never); after Ns: once the victim has been scheduled N seconds; never: "
    "the victim tolerates this preemptor forever; last: only when no other victim will do";

struct MatrixOptions {
  Inputs inputs;
  std::string output = "text";
  bool system_classes = false;
};

using policy::ClassCell;
using policy::ClassVerdict;
using policy::ClassView;

struct Matrix {
  std::string policy, summary;
  std::vector<std::vector<ClassCell>> cells;  // [preemptor][victim], in class order
  std::vector<std::string> notes;
};

bool built_in(const ClassView& c) {
  return c.object == nullptr;
}

// The input's classes, plus the built-in system classes when a pod names them (or when asked),
// highest value first; ties by name so the table is stable.
std::vector<ClassView> classes_of(const model::Snapshot& snap, bool with_system) {
  std::vector<ClassView> out;
  for (const model::PriorityClass& pc : snap.priority_classes()) {
    out.push_back(policy::class_view(pc));
  }
  const std::array<std::pair<std::string_view, std::int32_t>, 2> built_ins{
      {{"system-node-critical", model::k_system_node_critical},
       {"system-cluster-critical", model::k_system_cluster_critical}}};
  for (const auto& [name, value] : built_ins) {
    bool named = std::any_of(snap.pods().begin(), snap.pods().end(),
                             [&](const model::Pod& p) { return p.priority_class_name == name; });
    // find_priority_class resolves built-ins the dump lacks; look at the input itself.
    bool in_input =
        std::any_of(out.begin(), out.end(), [&](const ClassView& c) { return c.name == name; });
    if ((with_system || named) && !in_input) {
      out.push_back({std::string(name), value, false, nullptr});
    }
  }
  std::stable_sort(out.begin(), out.end(), [](const ClassView& a, const ClassView& b) {
    return a.value != b.value ? a.value > b.value : a.name < b.name;
  });
  return out;
}

Matrix build(const policy::Entry& entry, const std::vector<ClassView>& classes) {
  Matrix m{std::string(entry.name), std::string(entry.summary), {}, {}};
  for (const ClassView& p : classes) {
    std::vector<ClassCell> row;
    for (const ClassView& v : classes) {
      row.push_back(entry.classes->cell(p, v));
    }
    m.cells.push_back(std::move(row));
  }
  if (entry.classes->notes != nullptr) {
    m.notes = entry.classes->notes(classes);
  }
  return m;
}

// A table for every policy that judges by class and finds something to say about these.
std::vector<Matrix> matrices(const std::vector<ClassView>& classes) {
  std::vector<Matrix> out;
  for (const policy::Entry& e : policy::all()) {
    const policy::ClassRules& rules = *e.classes;
    if (rules.cell != nullptr && rules.shown != nullptr && rules.shown(classes)) {
      out.push_back(build(e, classes));
    }
  }
  return out;
}

std::string row_label(const ClassView& c) {
  return fmt::format("{} ({}{})", c.name, c.value, c.never ? ", Never" : "");
}

void print_text(const std::vector<ClassView>& classes, const std::vector<Matrix>& all,
                std::ostream& out) {
  for (const Matrix& m : all) {
    out << m.policy << ": " << m.summary << '\n';
    std::vector<std::string> header{"PREEMPTOR \\ VICTIM"};
    for (const ClassView& c : classes) {
      header.push_back(c.name);
    }
    render::Table table(std::move(header));
    for (std::size_t i = 0; i < classes.size(); ++i) {
      std::vector<std::string> row{row_label(classes[i])};
      for (const ClassCell& c : m.cells[i]) {
        row.push_back(policy::cell_text(c));
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

void print_markdown(const std::vector<ClassView>& classes, const std::vector<Matrix>& all,
                    std::ostream& out) {
  for (const Matrix& m : all) {
    out << "### " << m.policy << ": " << m.summary << "\n\n| preemptor \\ victim |";
    for (const ClassView& c : classes) {
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
      for (const ClassCell& c : m.cells[i]) {
        out << ' ' << policy::cell_text(c) << " |";
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

void print_json(const std::vector<ClassView>& classes, const std::vector<Matrix>& all,
                std::ostream& out) {
  nlohmann::ordered_json doc;
  doc["classes"] = nlohmann::ordered_json::array();
  for (const ClassView& c : classes) {
    doc["classes"].push_back({{"name", c.name},
                              {"value", c.value},
                              {"preemptionPolicy", c.never ? "Never" : "PreemptLowerPriority"},
                              {"builtIn", built_in(c)}});
  }
  doc["tables"] = nlohmann::ordered_json::array();
  for (const Matrix& m : all) {
    nlohmann::ordered_json rows = nlohmann::ordered_json::array();
    for (std::size_t i = 0; i < classes.size(); ++i) {
      nlohmann::ordered_json cells = nlohmann::ordered_json::array();
      for (std::size_t j = 0; j < classes.size(); ++j) {
        const ClassCell& c = m.cells[i][j];
        nlohmann::ordered_json cell{{"victim", classes[j].name},
                                    {"verdict", policy::to_string(c.verdict)},
                                    {"text", policy::cell_text(c)}};
        if (c.verdict == ClassVerdict::after) {
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
  std::vector<ClassView> classes = classes_of(loaded->snapshot, o.system_classes);
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
