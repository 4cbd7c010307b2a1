// SPDX-License-Identifier: Apache-2.0
// Quota bars from a quota policy's details. Each policy states its figures in its own shape
// (Kueue per flavor and resource, ElasticQuota min/max, Koordinator runtime, YuniKorn
// guaranteed/max per queue); they are read into one Bar each before drawing.
#include "render/html_page.h"
#include "render/html_parts.h"

#include "kpreempt/model/quantity.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <ostream>
#include <set>
#include <vector>

namespace kpreempt::render::html {
namespace {

using Json = nlohmann::ordered_json;
using Amounts = std::map<std::string, std::int64_t>;

// One queue's use of one resource, before and after the decision, against its guarantee
// (nominal, min, guaranteed) and its limit (max, runtime, nominal plus borrowing limit).
struct Bar {
  std::string queue, resource, label;  // label: the resource as the policy names it
  bool preemptor = false;
  std::int64_t before = 0, after = 0;
  std::optional<std::int64_t> guarantee, limit;
  std::string guarantee_name, limit_name;
};

bool milli_resource(std::string_view r) {
  return r == "cpu" || r == "vcore";
}

std::optional<std::int64_t> amount_of(const std::string& resource, const Json& v) {
  if (v.is_number_integer()) {
    return v.get<std::int64_t>();
  }
  if (v.is_number_float()) {
    return static_cast<std::int64_t>(std::llround(v.get<double>()));
  }
  if (v.is_string()) {
    const model::QuantityParse q = model::parse_quantity(v.get<std::string>());
    if (q.value) {
      return milli_resource(resource) ? q.value->milli() : q.value->value_ceil();
    }
  }
  return std::nullopt;
}

// {"cpu_milli": 2000, "memory": 1073741824} or {"cpu": "2", "memory": "1Gi"}.
Amounts amounts(const Json& j) {
  Amounts out;
  if (!j.is_object()) {
    return out;
  }
  for (const auto& [key, v] : j.items()) {
    const std::string name = key == "cpu_milli" ? "cpu" : key;
    if (auto a = amount_of(name, v)) {
      out[name] = *a;
    }
  }
  return out;
}

std::optional<std::int64_t> find(const Amounts& a, const std::string& r) {
  auto it = a.find(r);
  return it == a.end() ? std::nullopt : std::optional(it->second);
}

std::int64_t get0(const Amounts& a, const std::string& r) {
  return find(a, r).value_or(0);
}

std::optional<std::int64_t> int_or_null(const Json& j, const char* key) {
  if (!j.contains(key) || !j[key].is_number()) {
    return std::nullopt;
  }
  return j[key].get<std::int64_t>();
}

std::string str(const Json& j, const char* key) {
  return j.contains(key) && j[key].is_string() ? j[key].get<std::string>() : std::string();
}

std::vector<Bar> kueue_bars(const Json& details) {
  std::vector<Bar> bars;
  const std::string own = str(details, "clusterQueue");
  for (const Json& row : details["quota"]) {
    Bar b;
    b.queue = str(row, "clusterQueue");
    b.resource = str(row, "resource");
    b.label = str(row, "flavor") + "/" + b.resource;
    b.preemptor = b.queue == own;
    b.before = int_or_null(row, "usageBefore").value_or(0);
    b.after = int_or_null(row, "usageAfter").value_or(0);
    b.guarantee = int_or_null(row, "nominal");
    b.guarantee_name = "nominal";
    if (auto limit = int_or_null(row, "borrowingLimit"); limit && b.guarantee) {
      b.limit = *b.guarantee + *limit;
      b.limit_name = "nominal + borrowing limit";
    }
    bars.push_back(std::move(b));
  }
  return bars;
}

// The resources worth a bar: those the preemptor asks for, else every one with a figure.
std::set<std::string> wanted(const Amounts& ask, const std::vector<Amounts>& figures) {
  std::set<std::string> out;
  for (const auto& [r, v] : ask) {
    if (v != 0 && r != "pods") {
      out.insert(r);
    }
  }
  if (out.empty()) {
    for (const Amounts& a : figures) {
      for (const auto& [r, v] : a) {
        out.insert(r);
      }
    }
  }
  return out;
}

struct QueueFigures {
  std::string queue;
  bool preemptor = false;
  Amounts before, after, guarantee, limit;
  bool has_limit = true;
};

void add_bars(const QueueFigures& q, const std::set<std::string>& resources, std::string_view g,
              std::string_view l, std::vector<Bar>& bars) {
  for (const std::string& r : resources) {
    Bar b;
    b.queue = q.queue;
    b.resource = r;
    b.label = r;
    b.preemptor = q.preemptor;
    b.before = get0(q.before, r);
    b.after = get0(q.after, r);
    b.guarantee = find(q.guarantee, r);
    b.guarantee_name = g;
    b.limit = q.has_limit ? find(q.limit, r) : std::nullopt;
    b.limit_name = l;
    bars.push_back(std::move(b));
  }
}

std::vector<Bar> capacity_bars(const Json& details) {
  std::vector<QueueFigures> queues;
  for (const Json& q : details["quotas"]) {
    queues.push_back({str(q, "namespace") + "/" + str(q, "name"), q.value("preemptor", false),
                      amounts(q["used_before"]), amounts(q["used_after"]), amounts(q["min"]),
                      amounts(q["max"]), !q.value("max_unlimited", false)});
  }
  const Json& prefilter = details.contains("prefilter") ? details["prefilter"] : Json();
  std::vector<Amounts> figures;
  for (const QueueFigures& q : queues) {
    figures.push_back(q.before);
  }
  const std::set<std::string> rs = wanted(
      prefilter.is_object() ? amounts(prefilter.value("request", Json())) : Amounts{}, figures);
  std::vector<Bar> bars;
  for (const QueueFigures& q : queues) {
    add_bars(q, rs, "min", "max", bars);
  }
  return bars;
}

std::vector<Bar> koordinator_bars(const Json& details) {
  const std::string own = str(details, "quota");
  std::vector<QueueFigures> queues;
  for (const Json& q : details["quotas"]) {
    const std::string name = str(q, "name");
    queues.push_back({name, name == own, amounts(q["used"]), amounts(q["usedAfter"]),
                      amounts(q["min"]), amounts(q["runtime"]), true});
  }
  std::vector<Amounts> figures;
  for (const QueueFigures& q : queues) {
    figures.push_back(q.before);
  }
  const std::set<std::string> rs =
      wanted(amounts(details.value("preemptorRequest", Json())), figures);
  std::vector<Bar> bars;
  for (const QueueFigures& q : queues) {
    add_bars(q, rs, "min", "runtime", bars);
  }
  return bars;
}

std::vector<Bar> yunikorn_bars(const Json& details) {
  const std::string own = str(details, "askQueue");
  std::vector<QueueFigures> queues;
  for (const Json& q : details["queues"]) {
    const std::string path = str(q, "path");
    queues.push_back({path, path == own, amounts(q["usedBefore"]), amounts(q["usedAfter"]),
                      amounts(q["guaranteed"]), amounts(q["max"]), true});
  }
  std::vector<Amounts> figures;
  for (const QueueFigures& q : queues) {
    figures.push_back(q.before);
  }
  const std::set<std::string> rs = wanted(amounts(details.value("ask", Json())), figures);
  std::vector<Bar> bars;
  for (const QueueFigures& q : queues) {
    add_bars(q, rs, "guaranteed", "max", bars);
  }
  return bars;
}

bool has_array(const Json& j, const char* key, const char* member) {
  return j.contains(key) && j[key].is_array() && !j[key].empty() && j[key][0].is_object() &&
         j[key][0].contains(member);
}

// Whatever quota figures the details carry, as bars.
std::vector<Bar> read_bars(const Json& details) {
  if (!details.is_object()) {
    return {};
  }
  if (has_array(details, "quota", "usageBefore")) {
    return kueue_bars(details);
  }
  if (has_array(details, "quotas", "used_before")) {
    return capacity_bars(details);
  }
  if (has_array(details, "quotas", "usedAfter")) {
    return koordinator_bars(details);
  }
  if (has_array(details, "queues", "usedBefore")) {
    return yunikorn_bars(details);
  }
  return {};
}

// The preemptor's queue first, then the victims' queues in the order they lose a victim.
std::vector<Bar> relevant(std::vector<Bar> bars, const policy::Decision& d) {
  std::vector<std::string> order;
  for (const Bar& b : bars) {
    if (b.preemptor && std::find(order.begin(), order.end(), b.queue) == order.end()) {
      order.push_back(b.queue);
    }
  }
  for (const policy::Victim& v : d.victims) {
    if (!v.queue.empty() && std::find(order.begin(), order.end(), v.queue) == order.end()) {
      order.push_back(v.queue);
    }
  }
  std::vector<Bar> out;
  for (const std::string& q : order) {
    for (const Bar& b : bars) {
      if (b.queue == q) {
        out.push_back(b);
      }
    }
  }
  return out;
}

constexpr int k_label_width = 260;
constexpr int k_bar_width = 560;
constexpr int k_row_height = 40;

std::int64_t largest(const Bar& b) {
  return std::max(
      {b.before, b.after, b.guarantee.value_or(0), b.limit.value_or(0), std::int64_t{1}});
}

// `top`: the largest figure of any bar of the same resource, so that their lengths compare.
void draw_bar(std::ostream& out, const Bar& b, std::int64_t top, int y) {
  const double scale = k_bar_width / (static_cast<double>(top) * 1.08);
  auto x_of = [&](std::int64_t v) {
    return k_label_width + std::max(0.0, static_cast<double>(v)) * scale;
  };
  const std::string who = b.preemptor ? " (preemptor)" : "";
  out << fmt::format("<text x=\"0\" y=\"{}\" class=\"head\">{}{}</text>", y + 12,
                     esc(shorten(b.queue, 34)), esc(who))
      << fmt::format("<text x=\"0\" y=\"{}\" class=\"small\">{}</text>", y + 26,
                     esc(shorten(b.label, 40)));
  const auto rect = [&](std::int64_t v, int dy, const char* cls, const char* when) {
    out << fmt::format(
        "<rect x=\"{}\" y=\"{}\" width=\"{:.1f}\" height=\"12\" class=\"{}\"><title>{} {} "
        "{}: {}</title></rect>",
        k_label_width, y + dy, x_of(v) - k_label_width, cls, esc(b.queue), esc(b.label), when,
        esc(amount_text(b.resource, v)));
    out << fmt::format("<text x=\"{:.1f}\" y=\"{}\" class=\"small\">{} {}</text>", x_of(v) + 4,
                       y + dy + 10, when, esc(amount_text(b.resource, v)));
  };
  rect(b.before, 2, "before", "before");
  rect(b.after, 16, "after", "after");
  const auto marker = [&](const std::optional<std::int64_t>& v, const std::string& name,
                          const char* cls) {
    if (!v) {
      return;
    }
    out << fmt::format(
        "<line x1=\"{0:.1f}\" x2=\"{0:.1f}\" y1=\"{1}\" y2=\"{2}\" class=\"{3}\"><title>{4}: "
        "{5}</title></line>",
        x_of(*v), y, y + 30, cls, esc(name), esc(amount_text(b.resource, *v)));
  };
  marker(b.guarantee, b.guarantee_name, "guarantee");
  marker(b.limit, b.limit_name, "limit");
}

}  // namespace

std::string amount_text(const std::string& resource, std::int64_t amount) {
  if (milli_resource(resource)) {
    return model::to_string(model::Quantity::from_milli(amount));
  }
  const bool bytes =
      resource == "memory" || resource == "ephemeral-storage" || resource.starts_with("hugepages-");
  return model::to_string(model::Quantity::from_units(amount), bytes);
}

void quota_bars(std::ostream& out, const policy::Decision& d) {
  const std::vector<Bar> bars = relevant(read_bars(d.details), d);
  if (bars.empty()) {
    return;
  }
  std::string guarantee = bars.front().guarantee_name, limit = bars.front().limit_name;
  out << "<h4>Quota before and after</h4>\n<p class=\"legend\"><span><i "
         "style=\"background:#8c959f\"></i>before</span><span><i style=\"background:#6e9bd1\">"
         "</i>after</span><span><i style=\"border:0;border-left:3px dashed #1a7f37\"></i>"
      << esc(guarantee) << "</span><span><i style=\"border:0;border-left:3px solid #cf222e\"></i>"
      << esc(limit.empty() ? "limit" : limit) << "</span></p>\n";
  const int height = static_cast<int>(bars.size()) * k_row_height + 4;
  out << svg_open(k_label_width + k_bar_width + 120, height, "quota before and after");
  std::map<std::string, std::int64_t> top;
  for (const Bar& b : bars) {
    top[b.resource] = std::max(top[b.resource], largest(b));
  }
  int y = 2;
  for (const Bar& b : bars) {
    draw_bar(out, b, top[b.resource], y);
    out << '\n';
    y += k_row_height;
  }
  out << "</svg>\n";
}

}  // namespace kpreempt::render::html
