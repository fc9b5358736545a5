// serdiff harness: a case's report, the text a person reads (`serdiff repro`, a failing
// property, a fuzz binary's crash). Built from the verdict (harness/verdict.h) only for a failing
// case or on request.
#pragma once

#include "harness/verdict.h"

namespace serdiff::harness {

// Writes result->report from the verdict, the runs and the printers; sets rendered. A failing
// report ends with the stable line "serdiff: <target>: <class>", which fuzzing services
// deduplicate on.
void RenderReport(const JudgeInput& in, CaseResult* result);

}  // namespace serdiff::harness
