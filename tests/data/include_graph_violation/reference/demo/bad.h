// A reference that includes a target definition: scripts/check_includes.cmake must refuse it
// (the test include_graph_refuses_a_violation).
#include "targets/cql/domain.h"
