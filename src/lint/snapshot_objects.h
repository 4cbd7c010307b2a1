// SPDX-License-Identifier: Apache-2.0
// A snapshot file's decoded objects written back as API objects, for the lint rules.
#pragma once

#include "kpreempt/diag.h"
#include "kpreempt/model/snapshot.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace kpreempt::lint {

struct WrittenObject {
  nlohmann::ordered_json doc;
  SourceLoc loc;          // where the object was read
  std::string kind = {};  // "queues.yaml" for a bare queue file; else the doc's kind
};

nlohmann::ordered_json written_resources(const model::ResourceList& list);
nlohmann::ordered_json written_map(const model::StringMap& m);
nlohmann::ordered_json written_metadata(std::string_view ns, std::string_view name);

// Classes, nodes and pods.
void write_core_objects(const model::Snapshot& s, std::vector<WrittenObject>& out);
// Kueue's objects, ElasticQuotas of both groups and YuniKorn's queue files.
void write_queue_objects(const model::Snapshot& s, std::vector<WrittenObject>& out);

}  // namespace kpreempt::lint
