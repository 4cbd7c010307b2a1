// SPDX-License-Identifier: Apache-2.0
// Strict queues.yaml parsing. Mirrors apache/yunikorn-core v1.7.0 pkg/common/configs
// (config.go ParseAndValidateConfig: yaml.UnmarshalStrict, then configvalidator.go Validate):
// unknown or repeated fields reject the whole file, so does any bad value.
#include "load/queues_yaml.h"

#include "kpreempt/model/go_parse.h"

#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <initializer_list>
#include <regex>
#include <sstream>
#include <unordered_set>

namespace kpreempt::load {
namespace {

using model::YkQueueConfig;

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

std::string join(const std::string& path, std::string_view key) {
  return path.empty() ? std::string(key) : path + "." + std::string(key);
}

class Parser {
 public:
  explicit Parser(const QueuesYamlOrigin& origin) : m_o(origin) {}

  SourceLoc loc(const YAML::Mark& m) const {
    const auto line = static_cast<std::uint32_t>(std::max(m.line, 0));
    const auto col = static_cast<std::uint32_t>(std::max(m.column, 0));
    if (m_o.block) {
      // A block scalar's content starts on the line after the indicator, indentation stripped.
      return SourceLoc{m_o.file, m_o.first_line + line, m_o.indent + col + 1};
    }
    if (line == 0) {
      return SourceLoc{m_o.file, m_o.first_line, m_o.first_column + col};
    }
    return SourceLoc{m_o.file, m_o.first_line + line, col + 1};
  }

  [[noreturn]] void fail(const YAML::Mark& m, const std::string& path,
                         const std::string& message) const {
    std::string where = path.empty() ? "" : path + ": ";
    throw InputError(loc(m), m_o.what + ": " + where + message);
  }

  model::YunikornConfig config(const YAML::Node& root) {
    model::YunikornConfig c;
    check_fields(root, "", {"partitions", "checksum"});
    std::size_t i = 0;
    for_items(root["partitions"], "partitions", [&](const YAML::Node& p, const std::string& at) {
      c.partitions.push_back(partition(p, at));
      ++i;
    });
    if (c.partitions.empty()) {
      fail(root.Mark(), "", "no partitions defined");
    }
    check_unique_partitions(c, root);
    return c;
  }

 private:
  // Calls f(value, path) for every item of a sequence; null is an empty sequence.
  template <typename F>
  void for_items(const YAML::Node& n, const std::string& path, F&& f) const {
    if (!n.IsDefined() || n.IsNull()) {
      return;
    }
    if (!n.IsSequence()) {
      fail(n.Mark(), path, "expected a list");
    }
    for (std::size_t i = 0; i < n.size(); ++i) {
      f(n[i], path + "[" + std::to_string(i) + "]");
    }
  }

  // Every key must be a known field (UnmarshalStrict) and appear once.
  void check_fields(const YAML::Node& n, const std::string& path,
                    std::initializer_list<std::string_view> allowed) const {
    if (!n.IsDefined() || n.IsNull()) {
      return;
    }
    if (!n.IsMap()) {
      fail(n.Mark(), path, "expected a map");
    }
    std::vector<std::string> seen;
    for (auto it = n.begin(); it != n.end(); ++it) {
      const std::string key = it->first.Scalar();
      if (std::find(allowed.begin(), allowed.end(), key) == allowed.end()) {
        fail(it->first.Mark(), path, "unknown field \"" + key + "\"");
      }
      if (std::find(seen.begin(), seen.end(), key) != seen.end()) {
        fail(it->first.Mark(), path, "field \"" + key + "\" is set twice");
      }
      seen.push_back(key);
    }
  }

  std::string str(const YAML::Node& n, const std::string& path) const {
    if (!n.IsDefined() || n.IsNull()) {
      return {};
    }
    if (!n.IsScalar()) {
      fail(n.Mark(), path, "expected a string");
    }
    return n.Scalar();
  }

  bool boolean(const YAML::Node& n, const std::string& path, bool def) const {
    if (!n.IsDefined() || n.IsNull()) {
      return def;
    }
    const std::string v = n.IsScalar() ? lower(n.Scalar()) : std::string();
    if (v == "true" || v == "yes" || v == "on" || v == "y") {
      return true;
    }
    if (v == "false" || v == "no" || v == "off" || v == "n") {
      return false;
    }
    fail(n.Mark(), path,
         "\"" + (n.IsScalar() ? n.Scalar() : std::string()) + "\" is not a boolean");
  }

  std::int64_t uint(const YAML::Node& n, const std::string& path) const {
    const std::string v = str(n, path);
    if (v.empty()) {
      return 0;
    }
    // Digits only, and what int64 holds.
    const auto parsed = model::go::parse_uint(v, 63);
    if (!parsed) {
      fail(n.Mark(), path, "\"" + v + "\" is not an unsigned integer");
    }
    return static_cast<std::int64_t>(parsed.value);
  }

  model::StringMap string_map(const YAML::Node& n, const std::string& path) const {
    model::StringMap out;
    if (!n.IsDefined() || n.IsNull()) {
      return out;
    }
    if (!n.IsMap()) {
      fail(n.Mark(), path, "expected a map");
    }
    for (auto it = n.begin(); it != n.end(); ++it) {
      const std::string key = it->first.Scalar();
      if (model::find(out, key) != nullptr) {
        fail(it->first.Mark(), path, "key \"" + key + "\" is set twice");
      }
      out.emplace_back(key, str(it->second, join(path, key)));
    }
    std::sort(out.begin(), out.end());
    return out;
  }

  // Where the value of `key` is: n[key] finds no key that is not a string (a null key reads as
  // ""), and asking a missing node for its mark throws.
  static YAML::Mark value_mark(const YAML::Node& map, const std::string& key) {
    for (auto it = map.begin(); it != map.end(); ++it) {
      if (it->first.Scalar() == key) {
        return it->second.Mark();
      }
    }
    return map.Mark();
  }

  // A guaranteed or max map; kept only when some value is positive (resources.go
  // NewResourceFromConf + the "IsZero" checks of queue.go).
  std::optional<model::YkResource> resource_map(const YAML::Node& n,
                                                const std::string& path) const {
    model::YkResource out;
    bool positive = false;
    for (const auto& [key, text] : string_map(n, path)) {
      std::string why;
      std::optional<std::int64_t> v = model::parse_yk_quantity(key, text, &why);
      if (!v) {
        fail(value_mark(n, key), join(path, key), "\"" + text + "\" " + why);
      }
      positive = positive || *v > 0;
      out.emplace_back(key, *v);
    }
    if (!positive) {
      return std::nullopt;
    }
    return out;
  }

  model::YkResources resources(const YAML::Node& n, const std::string& path) const {
    check_fields(n, path, {"guaranteed", "max"});
    model::YkResources r;
    if (n.IsDefined() && !n.IsNull()) {
      r.guaranteed = resource_map(n["guaranteed"], join(path, "guaranteed"));
      r.max = resource_map(n["max"], join(path, "max"));
    }
    return r;
  }

  void limits(const YAML::Node& n, const std::string& path) const {
    for_items(n, path, [&](const YAML::Node& l, const std::string& at) {
      check_fields(l, at, {"limit", "users", "groups", "maxapplications", "maxresources"});
      uint(l["maxapplications"], join(at, "maxapplications"));
      resource_map(l["maxresources"], join(at, "maxresources"));
    });
  }

  model::YkPlacementRule rule(const YAML::Node& n, const std::string& path) const {
    check_fields(n, path, {"name", "create", "filter", "parent", "value"});
    model::YkPlacementRule r;
    r.name = lower(str(n["name"], join(path, "name")));
    r.create = boolean(n["create"], join(path, "create"), false);
    r.value = str(n["value"], join(path, "value"));
    r.loc = loc(n.Mark());
    check_fields(n["filter"], join(path, "filter"), {"type", "users", "groups"});
    if (n["parent"].IsDefined() && !n["parent"].IsNull()) {
      r.parent.push_back(rule(n["parent"], join(path, "parent")));
    }
    return r;
  }

  model::YkPartition partition(const YAML::Node& n, const std::string& path) {
    // usergroupresolver and preemption.quotapreemptionenabled are v1.8 keys: loaded here and
    // kept with their place, so that a policy run as v1.7 can reject the file as v1.7 does.
    check_fields(n, path,
                 {"name", "queues", "placementrules", "limits", "preemption", "nodesortpolicy",
                  "usergroupresolver"});
    model::YkPartition p;
    p.name = str(n["name"], join(path, "name"));
    p.loc = loc(n.Mark());
    for_items(n["queues"], join(path, "queues"), [&](const YAML::Node& q, const std::string& at) {
      p.queues.push_back(queue(q, at));
    });
    for_items(n["placementrules"], join(path, "placementrules"),
              [&](const YAML::Node& r, const std::string& at) {
                p.placement_rules.push_back(rule(r, at));
              });
    limits(n["limits"], join(path, "limits"));
    p.has_limits = n["limits"].IsDefined() && !n["limits"].IsNull();
    const YAML::Node pre = n["preemption"];
    check_fields(pre, join(path, "preemption"), {"enabled", "quotapreemptionenabled"});
    if (pre.IsDefined() && !pre.IsNull()) {
      p.preemption_enabled = boolean(pre["enabled"], join(path, "preemption.enabled"), true);
      if (const YAML::Node quota = pre["quotapreemptionenabled"]; quota.IsDefined()) {
        p.newer_keys.push_back(loc(quota.Mark()));
        p.quota_preemption_enabled =
            boolean(quota, join(path, "preemption.quotapreemptionenabled"), false);
      }
    }
    if (const YAML::Node ugr = n["usergroupresolver"]; ugr.IsDefined()) {
      p.newer_keys.push_back(loc(ugr.Mark()));
      check_fields(ugr, join(path, "usergroupresolver"), {"type"});
      if (!ugr.IsNull()) {
        p.user_group_resolver = str(ugr["type"], join(path, "usergroupresolver.type"));
      }
    }
    const YAML::Node sort = n["nodesortpolicy"];
    check_fields(sort, join(path, "nodesortpolicy"), {"type", "resourceweights"});
    check_root(p, n, path);
    check_siblings(p.queues, n["queues"], join(path, "queues"));
    return p;
  }

  YkQueueConfig queue(const YAML::Node& n, const std::string& path) {
    check_fields(n, path,
                 {"name", "parent", "resources", "maxapplications", "properties", "adminacl",
                  "submitacl", "childtemplate", "queues", "limits"});
    YkQueueConfig q;
    q.name = str(n["name"], join(path, "name"));
    q.loc = loc(n.Mark());
    static const std::regex k_name("^[a-zA-Z0-9_:#/@-]{1,64}$");
    if (!std::regex_match(q.name, k_name)) {
      fail(n["name"].IsDefined() ? n["name"].Mark() : n.Mark(), join(path, "name"),
           "invalid queue name \"" + q.name + "\"");
    }
    q.parent = boolean(n["parent"], join(path, "parent"), false);
    q.resources = resources(n["resources"], join(path, "resources"));
    q.max_applications = uint(n["maxapplications"], join(path, "maxapplications"));
    q.properties = string_map(n["properties"], join(path, "properties"));
    str(n["adminacl"], join(path, "adminacl"));
    str(n["submitacl"], join(path, "submitacl"));
    const YAML::Node tmpl = n["childtemplate"];
    check_fields(tmpl, join(path, "childtemplate"), {"maxapplications", "properties", "resources"});
    if (tmpl.IsDefined() && !tmpl.IsNull()) {
      const std::string at = join(path, "childtemplate");
      q.child_template = model::YkChildTemplate{
          .properties = string_map(tmpl["properties"], join(at, "properties")),
          .resources = resources(tmpl["resources"], join(at, "resources")),
          .max_applications = uint(tmpl["maxapplications"], join(at, "maxapplications"))};
    }
    limits(n["limits"], join(path, "limits"));
    q.has_limits = n["limits"].IsDefined() && !n["limits"].IsNull();
    for_items(n["queues"], join(path, "queues"), [&](const YAML::Node& c, const std::string& at) {
      q.queues.push_back(queue(c, at));
    });
    check_siblings(q.queues, n["queues"], join(path, "queues"));
    return q;
  }

  // configvalidator.go checkQueues: sibling names are unique, ignoring case.
  void check_siblings(const std::vector<YkQueueConfig>& qs, const YAML::Node& list,
                      const std::string& path) const {
    // One pass with a set: a partition may hold tens of thousands of sibling queues.
    std::unordered_set<std::string> seen;
    seen.reserve(qs.size());
    for (std::size_t i = 0; i < qs.size(); ++i) {
      if (!seen.insert(lower(qs[i].name)).second) {
        fail(list[i].Mark(), path + "[" + std::to_string(i) + "]",
             "duplicate queue name \"" + qs[i].name + "\"");
      }
    }
  }

  // The root queue may not carry resources (configvalidator.go checkQueuesStructure).
  void check_root(const model::YkPartition& p, const YAML::Node& n, const std::string& path) const {
    if (p.queues.size() != 1 || lower(p.queues[0].name) != "root") {
      return;
    }
    const YAML::Node res = n["queues"][0]["resources"];
    if (res.IsDefined() && res.IsMap() && res.size() > 0) {
      fail(res.Mark(), join(path, "queues[0].resources"), "root queue must not have resources set");
    }
  }

  void check_unique_partitions(const model::YunikornConfig& c, const YAML::Node& root) const {
    for (std::size_t i = 0; i < c.partitions.size(); ++i) {
      for (std::size_t j = 0; j < i; ++j) {
        if (lower(c.partitions[i].name) == lower(c.partitions[j].name)) {
          fail(root["partitions"][i].Mark(), "partitions[" + std::to_string(i) + "]",
               "duplicate partition name \"" + c.partitions[i].name + "\"");
        }
      }
    }
  }

  const QueuesYamlOrigin& m_o;
};

// An event pass before YAML::Load that refuses anchors and aliases, as the dump loader does.
// yaml-cpp shares an aliased node, so an alias to an enclosing queue makes a cycle that the
// walk below would follow for ever.
class AnchorRefuser final : public YAML::EventHandler {
 public:
  explicit AnchorRefuser(const Parser& parser) : m_parser(parser) {}

  void OnDocumentStart(const YAML::Mark&) override {}
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark& m, YAML::anchor_t anchor) override { check(m, anchor); }
  void OnAlias(const YAML::Mark& m, YAML::anchor_t) override {
    m_parser.fail(m, "", "YAML aliases are not supported");
  }
  void OnScalar(const YAML::Mark& m, const std::string&, YAML::anchor_t anchor,
                const std::string&) override {
    check(m, anchor);
  }
  void OnSequenceStart(const YAML::Mark& m, const std::string&, YAML::anchor_t anchor,
                       YAML::EmitterStyle::value) override {
    check(m, anchor);
  }
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark& m, const std::string&, YAML::anchor_t anchor,
                  YAML::EmitterStyle::value) override {
    check(m, anchor);
  }
  void OnMapEnd() override {}

 private:
  void check(const YAML::Mark& m, YAML::anchor_t anchor) const {
    if (anchor != YAML::NullAnchor) {
      m_parser.fail(m, "", "YAML anchors are not supported");
    }
  }
  const Parser& m_parser;
};

void refuse_anchors(const std::string& text, const Parser& parser) {
  std::istringstream in(text);
  YAML::Parser events(in);
  AnchorRefuser handler(parser);
  // The first document only, as YAML::Load reads: on some malformed input yaml-cpp reports a
  // next document for ever without consuming anything.
  events.HandleNextDocument(handler);
}

}  // namespace

model::YunikornConfig parse_queues_yaml(std::string_view text, const QueuesYamlOrigin& origin) {
  Parser parser(origin);
  YAML::Node root;
  try {
    std::string copy(text);
    refuse_anchors(copy, parser);
    root = YAML::Load(copy);
  } catch (const YAML::DeepRecursion& e) {
    // yaml-cpp words its own depth limit "bad file".
    parser.fail(e.mark, "", "nesting is too deep");
  } catch (const YAML::ParserException& e) {
    parser.fail(e.mark, "", e.msg);
  }
  if (!root.IsMap()) {
    parser.fail(root.Mark(), "", "expected a map with \"partitions\"");
  }
  model::YunikornConfig c = parser.config(root);
  c.source = origin.what;
  c.loc = parser.loc(root.Mark());
  return c;
}

}  // namespace kpreempt::load
