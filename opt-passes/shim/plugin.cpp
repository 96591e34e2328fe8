// The C++ side of the dsp-opt-passes LLVM pass plugin: registers our module
// passes with the new pass manager (by name for -passes=, and at the
// optimizer-last extension point for clang -fpass-plugin) and hands each
// module to Rust (dsp_run_pass). llvmGetPassPluginInfo is defined in Rust
// (src/plugin.rs) so that the cdylib exports it.
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Transforms/InstCombine/InstCombine.h"
#include "llvm/Transforms/Scalar/EarlyCSE.h"
#include "llvm/Transforms/Scalar/LICM.h"
#include "llvm/Transforms/Scalar/LoopPassManager.h"
#include "llvm/Transforms/Scalar/SimplifyCFG.h"

using namespace llvm;

extern "C" bool dsp_run_pass(const char *name, LLVMModuleRef module, const char *isa);
extern "C" bool dsp_is_pass(const char *name);

static cl::opt<std::string> DspIsa("dsp-isa", cl::init(""),
    cl::desc("machine (.isa name or file) for the dsp-* passes (default: $DSP_ISA, then ftm)"));

static cl::opt<bool> DspMaskedTail("dsp-masked-tail", cl::init(false),
    cl::desc("run dsp-masked-tail before dsp-prepare at the optimizer-last extension point"));

static cl::opt<bool> DspWfv("dsp-wfv", cl::init(true),
    cl::desc("run dsp-wfv (function-level vectorization of vec-function directives) from -O1 at the optimizer-last extension point"));

static cl::opt<std::string> DspWfvOpt("dsp-wfv-opt", cl::init("all"),
    cl::desc("dsp-wfv's analyses and optimizations: naive, mem or all (seed 001's configurations)"));

static cl::opt<bool> DspWfvBoscc("dsp-wfv-boscc", cl::init(true),
    cl::desc("dsp-wfv's branches on superword conditions around linearized blocks (seed 001 §2.2.1)"));

static cl::opt<bool> DspWfvMultiversion("dsp-wfv-multiversion", cl::init(true),
    cl::desc("dsp-wfv's scalar versions of blocks behind branches on superword conditions for one active lane (seed 001 section 2.2.2)"));

static cl::opt<bool> DspWfvRestructure("dsp-wfv-restructure", cl::init(true),
    cl::desc("dsp-wfv's instance restructuring of vec-function loops whose callee branches at its entry (seed 001 section 2.2.3)"));

static cl::opt<bool> DspWfvAuto("dsp-wfv-auto", cl::init(false),
    cl::desc("dsp-wfv also vectorizes calls in loops to functions proven safe without directives"));

static cl::opt<bool> DspEggIsel("dsp-egg-isel", cl::init(false),
    cl::desc("run dsp-egg-isel (innermost loops vectorized by equality saturation, seed 004) from -O1 at the optimizer-last extension point"));

static cl::opt<std::string> DspEggParams("dsp-egg-params", cl::init(""),
    cl::desc("dsp-egg-isel's parameters: limits=NODES,ITERATIONS,MS;no-coop;contract;fast-math;no-ilp"));

static cl::opt<bool> DspEggEarly("dsp-egg-early", cl::init(true),
    cl::desc("run dsp-egg-isel before LLVM's loop vectorizer (the vectorizer-start extension point; default) or, =false, after it at the optimizer-last point"));

static cl::opt<bool> DspVectorFdiv("dsp-vector-fdiv", cl::init(true),
    cl::desc("run dsp-vector-fdiv (vector float division and square root on the vector units) from -O1 at the optimizer-last extension point"));

static cl::opt<bool> DspInterchange("dsp-interchange", cl::init(false),
    cl::desc("run dsp-interchange (a loop interchanged with its short inner loop when the outer iterations are independent) just before dsp-egg-isel at the vectorizer-start extension point"));

static cl::opt<bool> DspStripMine("dsp-strip-mine", cl::init(false),
    cl::desc("run dsp-interchange's strip-mined form (a short vector loop strip-mined, its strips around the long loop holding it) just before dsp-egg-isel at the vectorizer-start extension point"));

static cl::opt<bool> DspReverseCarry("dsp-reverse-carry", cl::init(false),
    cl::desc("run dsp-reverse-carry (a bit-reversed counter's carry loop in closed form, the loop around it versioned) at the vectorizer-start extension point"));

static cl::opt<bool> DspBitrevVec("dsp-bitrev-vec", cl::init(false),
    cl::desc("run dsp-bitrev-vec (a bit-reversal permutation's swaps on the vector unit) after dsp-reverse-carry at the vectorizer-start extension point"));

static cl::opt<bool> DspPredcom("dsp-predcom", cl::init(true),
    cl::desc("from -O2, run dsp-predcom (predictive commoning: loads that read what the loop loaded in earlier iterations become values carried in registers) after the late clean-up at the optimizer-last extension point"));
static cl::opt<bool> DspFlatten("dsp-flatten", cl::init(false),
    cl::desc("run dsp-flatten (a two-deep nest whose iterations are all independent, as dsp-interchange marks them, flattened into one loop) after dsp-masked-tail at the optimizer-last extension point"));

static cl::opt<bool> DspLateCleanup("dsp-late-cleanup", cl::init(true),
    cl::desc("from -O1, run early-cse (with memory SSA), instcombine, LICM and simplifycfg after the dsp-* passes at the optimizer-last extension point, before dsp-vector-fdiv and dsp-prepare: the loads and address arithmetic the passes leave repeated (an unroll-and-jam's peeled iterations) are merged and folded, what they leave invariant in a loop is hoisted, and the empty blocks between a loop's versions are merged"));

static cl::opt<bool> DspUnrollJam("dsp-unroll-jam", cl::init(false),
    cl::desc("run dsp-reduction-jam (a two-deep reduction nest unrolled and jammed) before dsp-egg-isel at the vectorizer-start extension point, and dsp-unroll-jam (the loop around a three-deep reduction nest) just before dsp-outer-vec at the optimizer-last extension point"));

static cl::opt<bool> DspScops("dsp-scops", cl::init(false),
    cl::desc("SCoP detection from clang (off by default; it transforms nothing itself): at the pipeline-start point, the canonical passes it expects, then the SCoPs found and the loop nests rejected as remarks of pass pluto (-Rpass-analysis=pluto)"));

static cl::opt<bool> DspPolyhedral("dsp-polyhedral", cl::init(false),
    cl::desc("run dsp-pluto (PLuTo: SCoPs scheduled, permutable bands tiled, loop nests regenerated) at the pipeline-start point after the canonical passes it expects; remarks of pass pluto"));

static cl::opt<std::string> DspTileSizes("dsp-tile-sizes", cl::init(""),
    cl::desc("dsp-pluto's tile sizes, one per tiled band row (N,N,...; default 32)"));

static cl::opt<bool> DspPlutoInterchange("dsp-pluto-interchange", cl::init(true),
    cl::desc("dsp-pluto: when PLuTo's schedule is not worth it, try an interchange-only schedule (on by default)"));

static cl::opt<bool> DspTileSizeFeedback("dsp-tile-size-feedback", cl::init(true),
    cl::desc("dsp-pluto: tile sizes refined by the machine model's cost (seed 004's Algorithm 1; on by default)"));

static cl::opt<std::string> DspPlutoReport("dsp-pluto-report", cl::init(""),
    cl::desc("dsp-pluto writes what it did with every SCoP and rejected loop nest to this JSON file"));

static cl::opt<bool> DspOuterVec("dsp-outer-vec", cl::init(false),
    cl::desc("run dsp-outer-vec (outer loops of nests vectorized whole) after dsp-wfv at the optimizer-last extension point"));

// An optimization remark of pass Pass ("wfv", "outer-vec") at a function or an
// instruction, for clang's -Rpass=NAME, -Rpass-missed=NAME, -Rpass-analysis=NAME.
extern "C" void dsp_remark(LLVMValueRef At, const char *Pass, int Kind, const char *Name, const char *Msg) {
  Value *V = unwrap(At);
  Function *F = nullptr;
  DiagnosticLocation Loc;
  const Value *Region = nullptr;
  if (auto *I = dyn_cast<Instruction>(V)) {
    F = I->getFunction();
    Loc = DiagnosticLocation(I->getDebugLoc());
    Region = I->getParent();
  } else if ((F = dyn_cast<Function>(V))) {
    if (DISubprogram *SP = F->getSubprogram())
      Loc = DiagnosticLocation(SP);
    if (!F->empty())
      Region = &F->getEntryBlock();
  }
  if (!F)
    return;
  LLVMContext &C = F->getContext();
  switch (Kind) {
  case 0: { OptimizationRemark R(Pass, Name, Loc, Region); R << Msg; C.diagnose(R); break; }
  case 1: { OptimizationRemarkMissed R(Pass, Name, Loc, Region); R << Msg; C.diagnose(R); break; }
  default: { OptimizationRemarkAnalysis R(Pass, Name, Loc, Region); R << Msg; C.diagnose(R); break; }
  }
}

namespace {
struct DspPass : PassInfoMixin<DspPass> {
  std::string Name;
  explicit DspPass(std::string N) : Name(std::move(N)) {}
  PreservedAnalyses run(Module &M, ModuleAnalysisManager &) {
    bool Changed = dsp_run_pass(Name.c_str(), wrap(&M), DspIsa.c_str());
    return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
  }
  void printPipeline(raw_ostream &OS, function_ref<StringRef(StringRef)>) { OS << Name; }
  static bool isRequired() { return true; } // lowering the backend relies on, even for optnone
};
} // namespace

extern "C" bool dsp_run_function_pass(const char *Name, LLVMValueRef F, const char *Isa);

namespace {
// The function form of a pass (dsp-egg-isel at the vectorizer-start point).
struct DspFnPass : PassInfoMixin<DspFnPass> {
  std::string Name;
  explicit DspFnPass(std::string N) : Name(std::move(N)) {}
  PreservedAnalyses run(Function &F, FunctionAnalysisManager &) {
    if (F.isDeclaration())
      return PreservedAnalyses::all();
    bool Changed = dsp_run_function_pass(Name.c_str(), wrap(&F), DspIsa.c_str());
    return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
  }
  static bool isRequired() { return false; }
};
} // namespace

extern "C" void dsp_register_callbacks(PassBuilder &PB) {
  PB.registerPipelineParsingCallback(
      [](StringRef Name, ModulePassManager &MPM, ArrayRef<PassBuilder::PipelineElement>) {
        if (!dsp_is_pass(Name.str().c_str()))
          return false;
        MPM.addPass(DspPass(Name.str()));
        return true;
      });
  PB.registerPipelineStartEPCallback(
      [&PB](ModulePassManager &MPM, OptimizationLevel Level) {
        if ((!DspScops && !DspPolyhedral) || Level == OptimizationLevel::O0)
          return;
        // The canonical form detection expects (opt-passes/tests/scop.rs), then detection.
        if (Error E = PB.parsePassPipeline(MPM, "function(mem2reg,early-cse,simplifycfg,instcombine<no-verify-fixpoint>,loop-simplify,lcssa,loop-rotate,indvars)")) {
          errs() << "dsp-opt-passes: " << toString(std::move(E)) << "\n";
          return;
        }
        if (DspScops)
          MPM.addPass(DspPass("dsp-scop-remarks"));
        if (DspPolyhedral) {
          std::string Params;
          if (!DspTileSizes.empty())
            Params += "sizes=" + DspTileSizes;
          if (!DspPlutoReport.empty())
            Params += (Params.empty() ? "" : ";") + std::string("report=") + DspPlutoReport;
          if (!DspPlutoInterchange)
            Params += (Params.empty() ? "" : ";") + std::string("no-interchange");
          if (!DspTileSizeFeedback)
            Params += (Params.empty() ? "" : ";") + std::string("no-feedback");
          MPM.addPass(DspPass(Params.empty() ? std::string("dsp-pluto") : "dsp-pluto<" + Params + ">"));
        }
      });
  PB.registerVectorizerStartEPCallback(
      [](FunctionPassManager &FPM, OptimizationLevel Level) {
        if (DspReverseCarry && Level != OptimizationLevel::O0)
          FPM.addPass(DspFnPass("dsp-reverse-carry"));
        if (DspBitrevVec && Level != OptimizationLevel::O0)
          FPM.addPass(DspFnPass("dsp-bitrev-vec"));
        if (DspUnrollJam && Level != OptimizationLevel::O0)
          FPM.addPass(DspFnPass("dsp-reduction-jam"));
        if ((DspInterchange || DspStripMine) && Level != OptimizationLevel::O0) {
          std::string Params = DspInterchange ? "" : "no-interchange";
          if (!DspStripMine)
            Params += Params.empty() ? "no-strips" : ";no-strips";
          if (DspFlatten)
            Params += Params.empty() ? "flatten" : ";flatten";
          FPM.addPass(DspFnPass(Params.empty() ? std::string("dsp-interchange") : "dsp-interchange<" + Params + ">"));
        }
        if (DspEggIsel && DspEggEarly && Level != OptimizationLevel::O0)
          FPM.addPass(DspFnPass("dsp-egg-isel<" + DspEggParams + (DspMaskedTail ? "" : ";no-tail") + ">"));
      });
  PB.registerOptimizerLastEPCallback(
      [](ModulePassManager &MPM, OptimizationLevel Level) {
        if (DspWfv && Level != OptimizationLevel::O0)
          MPM.addPass(DspPass("dsp-wfv<" + DspWfvOpt + (DspWfvAuto ? ";auto" : "") + (DspWfvBoscc ? "" : ";no-boscc") + (DspWfvMultiversion ? "" : ";no-multiversion") + (DspWfvRestructure ? "" : ";no-restructure") + ">"));
        if (DspUnrollJam && Level != OptimizationLevel::O0)
          MPM.addPass(DspPass("dsp-unroll-jam"));
        if (DspOuterVec && Level != OptimizationLevel::O0)
          MPM.addPass(DspPass(DspMaskedTail ? "dsp-outer-vec" : "dsp-outer-vec<no-tail>"));
        if (DspEggIsel && !DspEggEarly && Level != OptimizationLevel::O0)
          MPM.addPass(DspPass("dsp-egg-isel<" + DspEggParams + (DspMaskedTail ? "" : ";no-tail") + ">"));
        if (DspMaskedTail)
          MPM.addPass(DspPass("dsp-masked-tail"));
        if (DspFlatten && Level != OptimizationLevel::O0)
          MPM.addPass(DspPass("dsp-flatten"));
        // Not after dsp-vector-fdiv: its special operands rely on the
        // NaN an operation makes at run time (0 * inf), which instcombine
        // may fold to a constant NaN of another sign.
        if (DspLateCleanup && Level != OptimizationLevel::O0) {
          FunctionPassManager FPM;
          FPM.addPass(EarlyCSEPass(true));
          FPM.addPass(InstCombinePass());
          // Our passes leave invariant loads and arithmetic inside loops
          // (egg's steps, the jammed and strip-mined nests) and empty
          // blocks between the versions of a loop.
          FPM.addPass(createFunctionToLoopPassAdaptor(LICMPass(LICMOptions()), /*UseMemorySSA=*/true));
          FPM.addPass(SimplifyCFGPass());
          MPM.addPass(createModuleToFunctionPassAdaptor(std::move(FPM)));
        }
        if (DspPredcom && Level.getSpeedupLevel() >= 2)
          MPM.addPass(DspPass("dsp-predcom"));
        if (DspVectorFdiv && Level != OptimizationLevel::O0)
          MPM.addPass(DspPass("dsp-vector-fdiv"));
        MPM.addPass(DspPass("dsp-prepare"));
      });
}
