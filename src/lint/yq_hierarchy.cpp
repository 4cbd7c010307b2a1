// SPDX-License-Identifier: Apache-2.0
// YQ004: what makes yunikorn-core v1.7.0 refuse the whole queues.yaml: unknown fields
// (config.go uses yaml.UnmarshalStrict) and configvalidator.go checkQueueResource /
// checkQueuesStructure (guaranteed within max, children within the parent, no resources on
// root, unique sibling names). Also the queue walk shared by the YQ rules.
#include "lint/checks.h"
#include "lint/yq_view.h"

#include "kpreempt/model/yunikorn.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <map>

namespace kpreempt::lint {
namespace {

using Fields = std::vector<std::string_view>;
const Fields k_top = {"partitions", "checksum"};
const Fields k_partition = {"name",       "queues",         "placementrules",   "limits",
                            "preemption", "nodesortpolicy", "usergroupresolver"};
const Fields k_queue = {"name",     "parent",    "resources",     "maxapplications", "properties",
                        "adminacl", "submitacl", "childtemplate", "queues",          "limits"};
const Fields k_rule = {"name", "create", "filter", "parent", "value"};
const Fields k_limit = {"limit", "users", "groups", "maxapplications", "maxresources"};

std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

void walk(const QueuesDoc& doc, const Node& part, const std::string& pname, const Node& q,
          const Node& parent, const std::string& prefix,
          const std::function<void(const QueueVisit&)>& f) {
  std::string path = prefix.empty() ? q["name"].str() : prefix + "." + q["name"].str();
  if (prefix.empty() && lower(q["name"].text()) != "root") {
    path = "root." + path;  // YuniKorn wraps top-level queues under an implicit root
  }
  f(QueueVisit{&doc, part, pname, q, parent, path});
  for (const Node& child : q["queues"].children()) {
    walk(doc, part, pname, child, q, path, f);
  }
}

class Checker {
 public:
  Checker(const QueueVisit& v, Report& r) : m_v(v), m_r(r) {}

  void fields(const Node& n, const Fields& known) {
    for (const Node& m : n.children()) {
      if (n.is_map() && std::find(known.begin(), known.end(), m.key()) == known.end()) {
        std::string hint = closest(m.key(), known);
        add(m, fmt::format("unknown field {}{}: YuniKorn rejects the whole configuration",
                           quote(m.key()), hint.empty() ? "" : " (did you mean " + hint + "?)"));
      }
    }
  }

  // Resource map -> values; bad quantities are findings.
  std::map<std::string, std::int64_t> amounts(const Node& n) {
    std::map<std::string, std::int64_t> out;
    for (const Node& m : n.children()) {
      std::string why;
      auto v = model::parse_yk_quantity(m.key(), m.text(), &why);
      if (!v) {
        add(m, fmt::format("{} {} {}: YuniKorn rejects the whole configuration", m.key(),
                           quote(m.text()), why));
        continue;
      }
      out[std::string(m.key())] = *v;
    }
    return out;
  }

  void add(const Node& at, std::string message) { m_r.add(m_v.object(), at, std::move(message)); }

 private:
  const QueueVisit& m_v;
  Report& m_r;
};

void check_resources(const QueueVisit& v, Checker& ck) {
  Node res = v.queue["resources"];
  ck.fields(res, {"guaranteed", "max"});
  auto guaranteed = ck.amounts(res["guaranteed"]);
  auto max = ck.amounts(res["max"]);
  for (const auto& [k, g] : guaranteed) {
    if (max.contains(k) && g > max.at(k)) {
      ck.add(res["guaranteed"][k], fmt::format("guaranteed {} {} is above max {}", k,
                                               res["guaranteed"][k].text(), res["max"][k].text()));
    }
  }
  if (!v.parent.exists() && lower(v.queue["name"].text()) == "root" &&
      (res["guaranteed"].size() > 0 || res["max"].size() > 0)) {
    ck.add(res, "the root queue must not set resources");
  }
  Node pmax = v.parent["resources"]["max"];
  for (const auto& [k, m] : max) {
    auto p = model::parse_yk_quantity(k, pmax[k].text());
    if (pmax[k].exists() && p && m > *p) {
      ck.add(res["max"][k], fmt::format("max {} {} is above the parent's max {}", k,
                                        res["max"][k].text(), pmax[k].text()));
    }
  }
}

void check_children(const QueueVisit& v, Checker& ck) {
  std::map<std::string, std::int64_t> sum;
  std::map<std::string, std::string> seen;
  for (const Node& child : v.queue["queues"].children()) {
    std::string name = lower(child["name"].text());
    if (seen.contains(name)) {
      ck.add(child["name"], fmt::format("two child queues named {} (names ignore case)",
                                        quote(child["name"].text())));
    }
    seen[name] = child["name"].str();
    for (const Node& g : child["resources"]["guaranteed"].children()) {
      if (auto q = model::parse_yk_quantity(g.key(), g.text())) {
        sum[std::string(g.key())] += *q;
      }
    }
  }
  Node res = v.queue["resources"];
  for (const auto& [k, total] : sum) {
    for (const char* limit : {"guaranteed", "max"}) {
      Node own = res[limit][k];
      auto cap = own.exists() ? model::parse_yk_quantity(k, own.text()) : std::nullopt;
      if (cap && total > *cap) {
        ck.add(own, fmt::format("the children's guaranteed {} add up to {}, above this queue's "
                                "{} {}",
                                k, total, limit, own.text()));
        break;
      }
    }
  }
}

// A placement rule and, recursively, its parent rule.
void check_rule(const Node& rule, Checker& ck) {
  ck.fields(rule, k_rule);
  ck.fields(rule["filter"], {"type", "users", "groups"});
  if (rule["parent"].is_map()) {
    check_rule(rule["parent"], ck);
  }
}

}  // namespace

std::vector<Node> property_maps(const Node& queue) {
  return {queue["properties"], queue["childtemplate"]["properties"]};
}

void each_queue(const Corpus& c, const std::function<void(const QueueVisit&)>& f) {
  for (const QueuesDoc& doc : c.queues_docs()) {
    for (const Node& part : doc.root()["partitions"].children()) {
      std::string pname = part["name"].null() ? "default" : part["name"].str();
      for (const Node& q : part["queues"].children()) {
        walk(doc, part, pname, q, Node(), "", f);
      }
    }
  }
}

void check_yq004(const Context& c, Report& r) {
  for (const Diagnostic& d : c.corpus().queue_errors()) {
    r.add_at("queues.yaml", "", d.loc, d.message);
  }
  for (const QueuesDoc& doc : c.corpus().queues_docs()) {
    QueueVisit top{&doc, Node(), "", doc.root(), Node(), ""};
    Checker ck(top, r);
    ck.fields(doc.root(), k_top);
    for (const Node& part : doc.root()["partitions"].children()) {
      QueueVisit pv{&doc, part,   part["name"].null() ? "default" : part["name"].str(),
                    part, Node(), ""};
      Checker pc(pv, r);
      pc.fields(part, k_partition);
      pc.fields(part["preemption"], {"enabled", "quotapreemptionenabled"});  // the latter v1.8
      pc.fields(part["nodesortpolicy"], {"type", "resourceweights"});
      pc.fields(part["usergroupresolver"], {"type"});
      for (const Node& l : part["limits"].children()) {
        pc.fields(l, k_limit);
      }
      for (const Node& rule : part["placementrules"].children()) {
        check_rule(rule, pc);
      }
    }
  }
  each_queue(c.corpus(), [&](const QueueVisit& v) {
    Checker ck(v, r);
    ck.fields(v.queue, k_queue);
    ck.fields(v.queue["childtemplate"], {"maxapplications", "properties", "resources"});
    for (const Node& l : v.queue["limits"].children()) {
      ck.fields(l, k_limit);
    }
    check_resources(v, ck);
    check_children(v, ck);
  });
  // Sibling names at the top of each partition.
  for (const QueuesDoc& doc : c.corpus().queues_docs()) {
    for (const Node& part : doc.root()["partitions"].children()) {
      QueueVisit pv{&doc, part,   part["name"].null() ? "default" : part["name"].str(),
                    part, Node(), "root"};
      Checker ck(pv, r);
      check_children(QueueVisit{&doc, part, pv.partition_name, part, Node(), "root"}, ck);
    }
  }
}

}  // namespace kpreempt::lint
