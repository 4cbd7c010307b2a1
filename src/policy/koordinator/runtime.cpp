// SPDX-License-Identifier: Apache-2.0
// Runtime quota: how a parent's resources are split among its children, per resource key.
// Mirrors koordinator-sh/koordinator pkg/scheduler/plugins/elasticquota/core/
// runtime_quota_calculator.go (redistribution, iterationForRedistribution,
// computeHamiltonDeltas) and scale_minquota_when_over_root_res.go, commit a7a1b76bbf81.
#include "policy/koordinator/quota.h"

#include <algorithm>
#include <numeric>

namespace kpreempt::policy::koordinator {
namespace {

// 128-bit products, as upstream's bits.Mul64/Div64, so weight x rest never overflows.
__extension__ typedef unsigned __int128 Wide;
__extension__ typedef __int128 SignedWide;

struct Share {
  const std::string* name;
  std::int64_t request = 0, min = 0, weight = 0, runtime = 0;
  bool lend = true;
};

std::int64_t at(const ResVec& v, const std::string& key) {
  auto it = v.find(key);
  return it == v.end() ? 0 : it->second;
}

// floor(w * rest / total_weight) for each share, then the left-over units one each to the
// largest remainders, ties by quota name ascending (computeHamiltonDeltas).
std::vector<std::int64_t> hamilton(std::int64_t rest, std::int64_t total_weight,
                                   const std::vector<Share*>& shares) {
  std::vector<std::int64_t> deltas(shares.size(), 0);
  struct Rem {
    std::size_t index;
    Wide remainder;
    const std::string* name;
  };
  std::vector<Rem> rems;
  std::int64_t given = 0;
  for (std::size_t i = 0; i < shares.size(); ++i) {
    if (shares[i]->weight <= 0) {
      continue;
    }
    const Wide product = static_cast<Wide>(shares[i]->weight) * static_cast<std::uint64_t>(rest);
    deltas[i] = static_cast<std::int64_t>(product / static_cast<std::uint64_t>(total_weight));
    given += deltas[i];
    rems.push_back(Rem{i, product % static_cast<std::uint64_t>(total_weight), shares[i]->name});
  }
  std::stable_sort(rems.begin(), rems.end(), [](const Rem& a, const Rem& b) {
    return a.remainder != b.remainder ? a.remainder > b.remainder : *a.name < *b.name;
  });
  for (std::size_t i = 0; i < rems.size() && given < rest; ++i, ++given) {
    ++deltas[rems[i].index];
  }
  return deltas;
}

// Hands `rest` to the shares still below their request, by weight, until nothing is left or
// every share has what it asked for (iterationForRedistribution).
void iterate(std::int64_t rest, std::vector<Share*> shares) {
  while (rest > 0 && !shares.empty()) {
    std::int64_t total_weight = 0;
    for (const Share* s : shares) {
      total_weight += s->weight;
    }
    if (total_weight <= 0) {
      return;
    }
    const std::vector<std::int64_t> deltas = hamilton(rest, total_weight, shares);
    std::vector<Share*> still;
    rest = 0;
    for (std::size_t i = 0; i < shares.size(); ++i) {
      Share& s = *shares[i];
      s.runtime += deltas[i];
      if (s.runtime < s.request) {
        still.push_back(&s);
      } else {
        rest += s.runtime - s.request;
        s.runtime = s.request;
      }
    }
    shares = std::move(still);
  }
}

// redistribution: children asking for more than their min start at min and share the rest;
// the others get their request (lending the unused min) or their min (not lending).
void redistribute(std::int64_t total, std::vector<Share>& shares) {
  std::int64_t rest = total;
  std::vector<Share*> adjustable;
  for (Share& s : shares) {
    if (s.request > s.min) {
      adjustable.push_back(&s);
      s.runtime = s.min;
    } else {
      s.runtime = s.lend ? s.request : s.min;
    }
    rest -= s.runtime;
  }
  iterate(rest, adjustable);
}

}  // namespace

void QuotaModel::compute_runtime(const QuotaNode& parent, const ResVec& total) {
  std::vector<QuotaNode*> children;
  for (const std::string& c : parent.children) {
    children.push_back(&m_nodes.at(c));
    children.back()->runtime = ResVec{};
  }
  for (const auto& key_entry : m_keys) {
    const std::string& key = key_entry.first;
    const std::int64_t t = at(total, key);
    std::int64_t min_sum = 0;
    for (const QuotaNode* c : children) {
      min_sum += at(c->min, key);
    }
    // enableMinQuotaScale: when the mins together exceed what there is, each is scaled down
    // in proportion.
    const bool scale = m_args.enable_min_quota_scale && min_sum > t;
    std::vector<Share> shares;
    for (QuotaNode* c : children) {
      std::int64_t min = at(c->min, key);
      if (scale) {
        min = static_cast<std::int64_t>(static_cast<SignedWide>(std::max<std::int64_t>(t, 0)) *
                                        min / min_sum);
      }
      c->scaled_min[key] = min;
      shares.push_back(Share{&c->name, at(c->limited_request, key), min, at(c->shared_weight, key),
                             0, c->allow_lent});
    }
    redistribute(t, shares);
    for (std::size_t i = 0; i < children.size(); ++i) {
      (*children[i]->runtime)[key] = shares[i].runtime;
    }
  }
  for (QuotaNode* c : children) {
    compute_runtime(*c, *c->runtime);
  }
}

}  // namespace kpreempt::policy::koordinator
