// SPDX-License-Identifier: Apache-2.0
// Scheduler units and PodRequests: containers, sidecars, init containers, pod-level requests.

#include "kpreempt/model/resources.h"

#include <catch2/catch.hpp>

using namespace kpreempt::model;

namespace {

Quantity q(std::string_view text) {
  return *parse_quantity(text).value;
}

Container container(ResourceList requests, bool sidecar = false) {
  Container c;
  c.requests = std::move(requests);
  c.restart_always = sidecar;
  return c;
}

ResourceList cpu_mem(std::string_view cpu, std::string_view mem) {
  return {{"cpu", q(cpu)}, {"memory", q(mem)}};
}

}  // namespace

TEST_CASE("resource lists convert to scheduler units", "[model][resources]") {
  const Resources r = to_resources({{"cpu", q("1500m")},
                                    {"ephemeral-storage", q("1.5")},
                                    {"example.com/foo", q("3")},
                                    {"hugepages-2Mi", q("4Mi")},
                                    {"memory", q("1Gi")},
                                    {"pods", q("110")}});
  CHECK(r.cpu_milli == 1500);
  CHECK(r.memory == 1073741824);
  CHECK(r.ephemeral_storage == 2);
  CHECK(r.pods == 110);
  CHECK(r.get("example.com/foo") == 3);
  CHECK(r.get("hugepages-2Mi") == 4194304);
  CHECK(r.scalar.size() == 2);
}

TEST_CASE("resource names the scheduler does not track are ignored", "[model][resources]") {
  const Resources r = to_resources({{"foo", q("1")},
                                    {"kubernetes.io/batch-cpu", q("2")},
                                    {"nvidia.com/gpu", q("1")},
                                    {"requests.example.com/x", q("1")},
                                    {"Bad_Domain/x", q("1")}});
  CHECK(r.scalar == std::vector<std::pair<std::string, std::int64_t>>{
                        {"kubernetes.io/batch-cpu", 2}, {"nvidia.com/gpu", 1}});
}

TEST_CASE("Resources add, subtract and look up by name", "[model][resources]") {
  Resources a;
  a.set("cpu", 100);
  a.set("memory", 10);
  a.set("pods", 1);
  a.set("nvidia.com/gpu", 2);
  a.set("example.com/a", 1);
  CHECK(a.scalar.front().first == "example.com/a");
  Resources b = a;
  b.add(a);
  CHECK(b.get("cpu") == 200);
  CHECK(b.get("memory") == 20);
  CHECK(b.get("pods") == 2);
  CHECK(b.get("nvidia.com/gpu") == 4);
  CHECK(b.get("absent.io/x") == 0);
  b.subtract(a);
  CHECK(b == a);
  Resources c;
  c.subtract(a);
  CHECK(c.get("nvidia.com/gpu") == -2);
  CHECK(c.get("ephemeral-storage") == 0);
}

TEST_CASE("pod requests sum containers and add overhead", "[model][resources]") {
  Pod pod;
  pod.containers = {container(cpu_mem("100m", "100Mi")), container(cpu_mem("250m", "1Gi"))};
  pod.overhead = {{"cpu", q("10m")}};
  const Resources r = pod_requests(pod);
  CHECK(r.cpu_milli == 360);
  CHECK(r.memory == 1178599424);
  CHECK(r.pods == 0);
}

TEST_CASE("init containers take the maximum with the running containers", "[model][resources]") {
  Pod pod;
  pod.containers = {container(cpu_mem("2", "1G")), container(cpu_mem("1", "1G"))};
  pod.init_containers = {container(cpu_mem("2", "1G")), container(cpu_mem("2", "3G"))};
  const Resources r = pod_requests(pod);
  CHECK(r.cpu_milli == 3000);
  CHECK(r.memory == 3000000000);
}

TEST_CASE("sidecars add to the total and run beside later init containers", "[model][resources]") {
  Pod pod;
  pod.containers = {container(cpu_mem("1", "1Gi"))};
  pod.init_containers = {
      container(cpu_mem("500m", "0")),            // before the sidecar: alone
      container(cpu_mem("200m", "100Mi"), true),  // sidecar
      container(cpu_mem("1", "2Gi")),             // with the sidecar: 1200m, 2Gi+100Mi
  };
  const Resources r = pod_requests(pod);
  CHECK(r.cpu_milli == 1200);
  CHECK(r.memory == (2048LL + 100) * 1024 * 1024);

  pod.init_containers[2] = container(cpu_mem("100m", "10Mi"));
  const Resources small = pod_requests(pod);
  CHECK(small.cpu_milli == 1200);  // containers plus sidecar dominate
  CHECK(small.memory == (1024LL + 100) * 1024 * 1024);
}

TEST_CASE("the sidecar running sum counts toward the init peak", "[model][resources]") {
  Pod pod;
  pod.init_containers = {container({{"cpu", q("1")}}, true), container({{"cpu", q("2")}}, true)};
  CHECK(pod_requests(pod).cpu_milli == 3000);
  pod.containers = {container({{"cpu", q("1")}})};
  CHECK(pod_requests(pod).cpu_milli == 4000);
}

TEST_CASE("pod-level cpu and memory replace the container aggregate", "[model][resources]") {
  Pod pod;
  pod.containers = {container({{"cpu", q("1")}, {"memory", q("1Gi")}, {"nvidia.com/gpu", q("1")}})};
  pod.pod_level_requests = {{"cpu", q("3")}};
  pod.overhead = {{"cpu", q("100m")}, {"memory", q("1Mi")}};
  Resources r = pod_requests(pod);
  CHECK(r.cpu_milli == 3100);
  CHECK(r.memory == 1074790400);
  CHECK(r.get("nvidia.com/gpu") == 1);
  pod.pod_level_requests = {{"memory", q("512Mi")}};
  r = pod_requests(pod);
  CHECK(r.cpu_milli == 1100);
  CHECK(r.memory == 537919488);
}

TEST_CASE("quantities are summed exactly before rounding to whole units", "[model][resources]") {
  Pod pod;
  pod.containers = {container({{"memory", q("500m")}}), container({{"memory", q("500m")}})};
  CHECK(pod_requests(pod).memory == 1);
  pod.containers.push_back(container({{"memory", q("1m")}}));
  CHECK(pod_requests(pod).memory == 2);
}

TEST_CASE("negative aggregates floor at zero like SetMaxResource", "[model][resources]") {
  Pod pod;
  pod.containers = {container({{"cpu", q("-1")}})};
  CHECK(pod_requests(pod).cpu_milli == 0);
}
