// CQL family: what serdiff accepts from each implementation it did not write, declared once:
// the workers python_cassandra (the DataStax python driver 3.25, oracles/python_cassandra),
// node_cassandra (the DataStax Node.js driver 4.10.0, oracles/node_cassandra) and gocql (the Go
// CQL driver 1.3.2, oracles/gocql) in the encode targets they join. Each peer's divergences and the
// model of its driver are in its own file, divergences_<peer>.cc; divergences.cc holds what they
// share (internal.h). docs/peers.md
// ("## CQL") gives each with its example and its kind, and its generated table lists every one
// with its file (`serdiff list --emit divergences-md`). What a peer cannot take at all, its
// worker declines instead.
//
// A divergence's predicate holds when the input shows that difference AND the peer's answer is
// exactly what the model of the driver answers (serdiff's own bytes for every native value except
// those the driver is known to write otherwise, the driver's rules for collections, tuples and
// UDTs), so it never covers an answer that differs anywhere else. tests/cql_test.cc
// (CqlPeerDivergences) shows each on its example and on answers it does not cover.
#pragma once

#include <algorithm>
#include <functional>
#include <initializer_list>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "harness/target.h"
#include "targets/cql/domain.h"

namespace serdiff::targets::cql {

// One known difference of a peer: the predicate sees the encode input and the peer's answer
// (framed as the target's output). declared_in: the file of the brace initialization
// (__builtin_FILE()), carried into the target's Divergence.
struct PeerDivergence {
  std::string impl;
  std::string reason;
  bool (*applies)(const EncodeInput& in, const harness::Output& other);
  // The inputs at its edge, each with the driver model's answer there (harness::DivergenceEdge;
  // a peer divergence does not read the optimized side's answer).
  std::function<std::vector<harness::DivergenceEdge<EncodeInput>>()> edges = {};
  const char* declared_in = __builtin_FILE();
};

// divergences_python_cassandra.cc: none-element-as-empty, time-range-unchecked,
// duration-sign-unchecked, timeuuid-version-unchecked.
std::vector<PeerDivergence> PythonCassandraDivergences();
// divergences_node_cassandra.cc: null-element-refused, empty-list-in-list-crash,
// empty-list-as-null, udt-fields-padded, short-lengths-nested, ascii-as-latin1,
// duration-sign-unchecked, timeuuid-version-unchecked.
std::vector<PeerDivergence> NodeCassandraDivergences();
// divergences_gocql.cc: inet-bad-length-as-null, inet-v4-mapped-as-4, ascii-unchecked,
// time-range-unchecked, duration-sign-unchecked, timeuuid-version-unchecked,
// short-lengths-nested, null-tuple-panic, null-udt-refused, null-element-as-empty-v2,
// tuple-arity-required.
std::vector<PeerDivergence> GocqlDivergences();
// What each driver's model (divergences_<peer>.cc) says the driver answers for `in`, as the
// target's output: the payload, a rejection with the driver's message, or Declined where the
// model does not follow (python_cassandra: protocol v1/v2, a top-level null; gocql: what its
// worker declines).
// tests/peer_models_test.cc holds both models to the drivers' own answers.
harness::Output PythonCassandraModel(const EncodeInput& in);
harness::Output NodeCassandraModel(const EncodeInput& in);
harness::Output GocqlModelAnswer(const EncodeInput& in);

// Every peer's list: python_cassandra's, node_cassandra's, gocql's (divergences.cc).
const std::vector<PeerDivergence>& PeerDivergences();

// Adds to `def` the divergences of the peers named in `impls` (the workers whose manifests
// name the target); `get` finds the EncodeInput in the target's input.
// The edges go with them where the target's input is an EncodeInput (cql_encode_scalar,
// cql_encode_nested); the other targets' inputs hold one too, and say so in no_edge.
template <typename T, typename Get>
void AddPeerDivergences(harness::TargetDef<T>& def, Get get,
                        std::initializer_list<std::string_view> impls) {
  for (const PeerDivergence& d : PeerDivergences()) {
    if (std::find(impls.begin(), impls.end(), d.impl) == impls.end()) continue;
    harness::Divergence<T> div{
        d.impl, d.reason,
        [get, f = d.applies](const T& v, const harness::Output&, const harness::Output& other) {
          return f(get(v), other);
        }};
    if constexpr (std::is_same_v<T, EncodeInput>) {
      div.edges = d.edges;
    } else {
      div.no_edge =
          "the same predicate is held at its edges on cql_encode_scalar, whose input is the "
          "EncodeInput this target's input holds";
    }
    div.declared_in = d.declared_in;
    def.divergences.push_back(std::move(div));
  }
}

}  // namespace serdiff::targets::cql
