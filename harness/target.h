// serdiff harness: what a family's target file includes. A differential target is defined once
// (TargetDef, harness/definition.h) and used five ways: RapidCheck property, libFuzzer target,
// corpus replay, `serdiff check` / `serdiff repro`, benchmark inputs. The engine, one job a
// header, imports pointing one way (docs/architecture.md, "The engine"):
//   result.h       Output, Declined, Outcome: what an implementation returns (oracles, modules)
//   interchange.h  how an input crosses to a worker or a module
//   definition.h   Domain, Impl, Divergence, OutputCheck, HeapBound, FuzzLimits, TargetDef
//   run_config.h   the run configuration: subject, re-run sample, outside implementations
//   verdict.h      the rules of the verdict (JudgeCase) and its result (CaseResult)
//   report.h       the report text of a case (RenderReport)
//   external.h     workers and modules, and the implementations they give a target
//   typed_target.h Target and TypedTarget: run, judge, render; the property bodies
//   registry.h     Registry, families, fuzz-limit rules, attachment of workers and modules
#pragma once

#include "harness/definition.h"
#include "harness/registry.h"
#include "harness/typed_target.h"
