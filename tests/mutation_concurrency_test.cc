// Concurrency of the small-mutation path: 6 threads, released together by a barrier, serialize
// different mutations through SerializeSmall (one per-thread scratch buffer each) and compare
// every result with the exact-size path's bytes computed before the start. Built alone in the
// `tsan` preset (ThreadSanitizer; SERDIFF_TSAN_ONLY), and with the other unit tests elsewhere.
// Depends on serdiff_mutation only (no harness: the allocation tracker is not linked here).
#include <atomic>
#include <barrier>
#include <string>
#include <thread>
#include <vector>

#include "gtest/gtest.h"
#include "serdiff/mutation/mutation.h"

namespace serdiff::mutation {
namespace {

// A mutation that differs per thread in size and content: `rows` rows of one clustering int
// and two columns, values filled with `fill`.
Mutation ThreadMutation(int thread, int variant) {
  Mutation m;
  m.version = variant % 2 == 0 ? Version::kV40 : Version::kV51;
  PartitionUpdate u;
  u.table_id.fill(static_cast<uint8_t>(thread));
  u.epoch = m.version == Version::kV51 ? static_cast<uint64_t>(thread) : 0;
  u.key = std::string(static_cast<size_t>(thread + 1), static_cast<char>('a' + thread));
  u.stats.min_timestamp = 1700000000000000 + thread;
  u.clustering_widths = {4};
  u.regular_columns = {Column{"a", -1, false}, Column{"b", 8, false}};
  const int rows = 20 + thread * 15 + variant * 5;
  for (int r = 0; r < rows; ++r) {
    Unfiltered un;
    un.row.clustering = {std::string(4, static_cast<char>(r))};
    un.row.liveness.timestamp = 1700000000000000 + r;
    ColumnData a;
    a.column = 0;
    Cell ca;
    ca.timestamp = 1700000000000000 + r;
    ca.value =
        std::string(static_cast<size_t>(10 + thread * 13 + r % 5), static_cast<char>(thread));
    a.cells = {ca};
    un.row.columns.push_back(a);
    if (r % 2 == 0) {
      ColumnData b;
      b.column = 1;
      Cell cb;
      cb.timestamp = 1600000000000000;
      cb.value = std::string(8, static_cast<char>(r));
      b.cells = {cb};
      un.row.columns.push_back(b);
    }
    u.unfiltereds.push_back(un);
  }
  u.row_estimate = rows;
  m.updates = {u};
  return m;
}

TEST(MutationConcurrency, SmallPathThreadsAgreeWithExactPath) {
  constexpr int kThreads = 6;
  constexpr int kVariants = 3;
  constexpr int kRounds = 1000;
  std::vector<std::vector<Mutation>> inputs(kThreads);
  std::vector<std::vector<std::string>> expected(kThreads);
  for (int t = 0; t < kThreads; ++t) {
    for (int v = 0; v < kVariants; ++v) {
      inputs[t].push_back(ThreadMutation(t, v));
      absl::StatusOr<std::string> bytes = Serialize(inputs[t].back());
      ASSERT_TRUE(bytes.ok()) << bytes.status();
      expected[t].push_back(*bytes);
    }
  }
  std::barrier start(kThreads);
  std::atomic<int> mismatches{0};
  std::atomic<int> errors{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      start.arrive_and_wait();
      for (int round = 0; round < kRounds; ++round) {
        const int v = (round + t) % kVariants;
        absl::StatusOr<std::string> out = SerializeSmall(inputs[t][v], 1 << 16);
        if (!out.ok()) {
          errors.fetch_add(1);
        } else if (*out != expected[t][v]) {
          mismatches.fetch_add(1);
        }
      }
    });
  }
  for (std::thread& th : threads) th.join();
  EXPECT_EQ(errors.load(), 0);
  EXPECT_EQ(mismatches.load(), 0);
}

}  // namespace
}  // namespace serdiff::mutation
