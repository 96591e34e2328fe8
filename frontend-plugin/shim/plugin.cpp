// The C++ side of dsp-frontend-plugin (seed 001 §3), only what clang's
// plugin API forces; the clauses are parsed, checked and written by Rust
// (src/ffi.rs). This file:
//  - registers the plugin action "dspvec" (runs before the main action when
//    loaded with -fplugin=; -fplugin-arg-dspvec-ignore: directives checked
//    but nothing reaches the IR);
//  - registers the `#pragma simd` handler, which hands the pragma's tokens
//    to Rust and keeps the parsed directive with its location;
//  - matches each directive with what follows it as top-level declarations
//    arrive (a function for `declare vec-function`, a loop statement for
//    `vec-function`), reads clang's OpenMP `declare simd` attributes and
//    `simd` loop directives, and reports errors at the offending token;
//  - marks loops with an implicit loop hint carrying the directive's number
//    (pipeline_initiation_interval = 0x7D500000 + n, which clang's CodeGen
//    turns into loop metadata), and registers a pass at LLVM's pipeline-start
//    extension point that writes the contract: the "dsp-vec-function"
//    function attribute and the !{"dsp.vec_function.loop", origin} loop
//    property in place of the carrier (frontend-plugin/README.md).
#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Mangle.h"
#include "clang/AST/Stmt.h"
#include "clang/AST/StmtOpenMP.h"
#include "clang/Basic/CodeGenOptions.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/OpenMPKinds.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendPluginRegistry.h"
#include "clang/Lex/Pragma.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Metadata.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Passes/PassBuilder.h"

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

using namespace clang;

extern "C" {
struct DspOutcome;
struct DspToken {
  uint32_t kind; // 0 identifier/keyword, 1 number, 2 punctuation, 3 other
  const char *text;
  size_t len;
};
struct DspParam {
  const char *name;
  size_t len;
  uint32_t kind; // 0 integer, 1 pointer, 2 floating, 3 other
  uint64_t pointee_size;
};
DspOutcome *dsp_fp_parse(uint32_t dialect, const DspToken *toks, size_t n);
DspOutcome *dsp_fp_resolve(const DspOutcome *o, const char *function, size_t function_len,
                           const DspParam *params, size_t n);
DspOutcome *dsp_fp_render(const DspOutcome *const *os, size_t n, uint32_t offset, uint32_t ir_args);
uint32_t dsp_fp_kind(const DspOutcome *o);
bool dsp_fp_message(const DspOutcome *o, size_t *token, const char **msg, size_t *len);
void dsp_fp_free(DspOutcome *o);
uint32_t dsp_fp_shim_anchor(void) { return 1; }
}

namespace {

enum : uint32_t { KindDiag = 0, KindLoop = 1, KindDeclare = 2, KindResolved = 3, KindText = 4 };
enum : uint32_t { DialectSimd = 0, DialectOmp = 1 };
// A loop directive's carrier: the implicit pipeline_initiation_interval hint's value.
const uint32_t CarrierBase = 0x7D500000;
const char *LoopMsg = "'#pragma simd vec-function' must be followed by a loop";
const char *DeclareMsg =
    "'#pragma simd declare vec-function' must be followed by a function declaration or definition";

struct FreeOutcome {
  void operator()(DspOutcome *o) const { dsp_fp_free(o); }
};
using Outcome = std::unique_ptr<DspOutcome, FreeOutcome>;

// A directive's tokens as clang lexed them; locations has one more entry
// (the end of the directive) for diagnostics after the last token.
struct Tokens {
  std::vector<std::string> Texts;
  std::vector<uint32_t> Kinds;
  std::vector<SourceLocation> Locs;
  void add(uint32_t Kind, std::string Text, SourceLocation L) {
    Kinds.push_back(Kind);
    Texts.push_back(std::move(Text));
    Locs.push_back(L);
  }
  Outcome parse(uint32_t Dialect) const {
    std::vector<DspToken> T;
    for (size_t I = 0; I < Texts.size(); ++I)
      T.push_back({Kinds[I], Texts[I].data(), Texts[I].size()});
    return Outcome(dsp_fp_parse(Dialect, T.data(), T.size()));
  }
};

struct PendingDirective {
  SourceLocation Loc; // the pragma's '#'
  bool IsLoop;
  Outcome Parsed;
  std::vector<SourceLocation> TokLocs;
  bool Done = false;
};

struct FunctionDirectives {
  SourceLocation Loc;
  std::vector<Outcome> Resolved;
};

// One compilation's directives, shared by the pragma handler, the AST
// consumer and the IR pass (each holds a shared_ptr).
struct State {
  bool Ignore = false;
  DiagnosticsEngine *Diags = nullptr;
  unsigned ErrId = 0;
  std::vector<PendingDirective> Pending;
  std::map<std::string, FunctionDirectives> Functions; // by IR name
  std::vector<const char *> LoopOrigins;               // by carrier number
  std::set<const Attr *> SeenOmpAttrs;

  void error(SourceLocation L, llvm::StringRef Msg) { Diags->Report(L, ErrId) << Msg; }

  // Reports a diagnostic outcome at its token. Returns whether it was one.
  bool report(const Outcome &O, const std::vector<SourceLocation> &Locs, SourceLocation Fallback) {
    size_t Tok = 0, Len = 0;
    const char *Msg = nullptr;
    if (dsp_fp_kind(O.get()) != KindDiag)
      return false;
    if (!dsp_fp_message(O.get(), &Tok, &Msg, &Len)) {
      error(Fallback, "internal error in the directive parser");
      return true;
    }
    SourceLocation L = Tok < Locs.size() ? Locs[Tok] : Fallback;
    error(L, llvm::StringRef(Msg, Len));
    return true;
  }
};

class SimdPragma : public PragmaHandler {
  std::shared_ptr<State> S;

public:
  explicit SimdPragma(std::shared_ptr<State> S) : PragmaHandler("simd"), S(std::move(S)) {}

  void HandlePragma(Preprocessor &PP, PragmaIntroducer Intro, Token &) override {
    Tokens T;
    Token Tok;
    PP.Lex(Tok);
    while (Tok.isNot(tok::eod)) {
      uint32_t Kind = Tok.getIdentifierInfo()           ? 0
                      : Tok.is(tok::numeric_constant)    ? 1
                      : tok::getPunctuatorSpelling(Tok.getKind()) ? 2
                                                          : 3;
      T.add(Kind, PP.getSpelling(Tok), Tok.getLocation());
      PP.Lex(Tok);
    }
    T.Locs.push_back(Tok.getLocation());
    Outcome P = T.parse(DialectSimd);
    if (S->report(P, T.Locs, Intro.Loc))
      return;
    bool IsLoop = dsp_fp_kind(P.get()) == KindLoop;
    S->Pending.push_back({Intro.Loc, IsLoop, std::move(P), std::move(T.Locs)});
  }
};

// The places holding St's sub-statements: its children, and for a captured
// statement (OpenMP regions) the statement it captures, whose slot follows
// the capture initialisers (clang offers no public setter for it).
std::vector<Stmt **> slots(Stmt *St) {
  std::vector<Stmt **> V;
  for (Stmt *&C : St->children())
    V.push_back(&C);
  if (auto *CS = dyn_cast<CapturedStmt>(St))
    V.push_back(reinterpret_cast<Stmt **>(CS->capture_init_end()));
  return V;
}

// Stores New in a slot; a captured statement's body pointer follows it.
void store(Stmt *Parent, Stmt **Slot, Stmt *New) {
  *Slot = New;
  if (auto *CS = dyn_cast_or_null<CapturedStmt>(Parent))
    if (reinterpret_cast<Stmt **>(CS->capture_init_end()) == Slot)
      CS->getCapturedDecl()->setBody(New);
}

bool isLoop(const Stmt *St) {
  while (auto *A = dyn_cast_or_null<AttributedStmt>(St))
    St = A->getSubStmt();
  return St && (isa<ForStmt>(St) || isa<WhileStmt>(St) || isa<DoStmt>(St));
}

class VecConsumer : public ASTConsumer {
  CompilerInstance &CI;
  std::shared_ptr<State> S;

  SourceManager &SM() { return CI.getSourceManager(); }
  ASTContext &Ctx() { return CI.getASTContext(); }
  bool before(SourceLocation A, SourceLocation B) {
    return SM().isBeforeInTranslationUnit(SM().getExpansionLoc(A), SM().getExpansionLoc(B));
  }

  // The statement that starts first after L (the outermost one at that place).
  void nextStmt(Stmt *St, SourceLocation L, Stmt *&Best, SourceLocation &BestLoc) {
    if (!St)
      return;
    SourceLocation B = St->getBeginLoc();
    if (B.isValid() && before(L, B) && (!Best || before(B, BestLoc))) {
      Best = St;
      BestLoc = B;
    }
    for (Stmt **C : slots(St))
      nextStmt(*C, L, Best, BestLoc);
  }

  // Replaces the slot holding Loop (directly or under attributed statements)
  // by one attributed statement with the attributes found and A.
  bool wrap(Stmt *Parent, Stmt **Slot, Stmt *Loop, const Attr *A, SourceLocation L) {
    Stmt *St = *Slot;
    if (!St)
      return false;
    llvm::SmallVector<const Attr *, 4> Attrs;
    Stmt *In = St;
    while (auto *AS = dyn_cast<AttributedStmt>(In)) {
      Attrs.append(AS->getAttrs().begin(), AS->getAttrs().end());
      In = AS->getSubStmt();
    }
    if (In == Loop) {
      Attrs.push_back(A);
      store(Parent, Slot, AttributedStmt::Create(Ctx(), L, Attrs, Loop));
      return true;
    }
    for (Stmt **C : slots(St))
      if (wrap(St, C, Loop, A, L))
        return true;
    return false;
  }

  const Attr *carrier(const char *Origin, SourceLocation L) {
    uint32_t N = CarrierBase + S->LoopOrigins.size();
    S->LoopOrigins.push_back(Origin);
    Expr *V = IntegerLiteral::Create(Ctx(), llvm::APInt(32, N), Ctx().IntTy, L);
    return LoopHintAttr::CreateImplicit(Ctx(), LoopHintAttr::PipelineInitiationInterval,
                                        LoopHintAttr::Numeric, V, SourceRange(L));
  }

  void loopDirective(PendingDirective &P, FunctionDecl *FD) {
    Stmt *Best = nullptr;
    SourceLocation BestLoc;
    nextStmt(FD->getBody(), P.Loc, Best, BestLoc);
    if (!isLoop(Best) || !before(BestLoc, FD->getEndLoc())) {
      S->error(P.Loc, LoopMsg);
      return;
    }
    if (S->Ignore)
      return;
    Stmt *Loop = Best;
    while (auto *A = dyn_cast<AttributedStmt>(Loop))
      Loop = A->getSubStmt();
    const Attr *A = carrier("simd", P.Loc);
    bool Done = false;
    for (Stmt **C : slots(FD->getBody()))
      if (!Done)
        Done = wrap(FD->getBody(), C, Loop, A, P.Loc);
    if (!Done)
      S->error(P.Loc, "internal error: the loop after '#pragma simd vec-function' was not found");
  }

  // `#pragma omp simd` (and the combined `… simd` constructs), parsed by
  // clang with -fopenmp-simd: the loop statement inside gets the carrier.
  void ompLoops(Stmt *St) {
    if (!St)
      return;
    if (auto *D = dyn_cast<OMPLoopDirective>(St)) {
      if (isOpenMPSimdDirective(D->getDirectiveKind()) && D->hasAssociatedStmt() && !S->Ignore) {
        CapturedStmt *CS = D->getInnermostCapturedStmt();
        llvm::SmallVector<const Attr *, 4> Attrs;
        Stmt *In = CS->getCapturedStmt();
        while (auto *AS = dyn_cast<AttributedStmt>(In)) {
          Attrs.append(AS->getAttrs().begin(), AS->getAttrs().end());
          In = AS->getSubStmt();
        }
        Attrs.push_back(carrier("omp", D->getBeginLoc()));
        store(CS, slots(CS).back(), AttributedStmt::Create(Ctx(), D->getBeginLoc(), Attrs, In));
        ompLoops(In);
        return;
      }
    }
    for (Stmt **C : slots(St))
      ompLoops(*C);
  }

  void params(FunctionDecl *FD, std::vector<std::string> &Names, std::vector<DspParam> &Out) {
    for (ParmVarDecl *P : FD->parameters())
      Names.push_back(P->getName().str());
    for (size_t I = 0; I < FD->getNumParams(); ++I) {
      QualType T = FD->getParamDecl(I)->getType().getCanonicalType();
      DspParam D{Names[I].data(), Names[I].size(), 3, 0};
      if (T->isIntegerType()) {
        D.kind = 0;
      } else if (const PointerType *PT = T->getAs<PointerType>()) {
        QualType E = PT->getPointeeType();
        D.kind = 1;
        D.pointee_size = (E->isIncompleteType() || E->isFunctionType() || E->isVoidType())
                             ? 1
                             : Ctx().getTypeSizeInChars(E).getQuantity();
      } else if (T->isRealFloatingType()) {
        D.kind = 2;
      }
      Out.push_back(D);
    }
  }

  std::string irName(FunctionDecl *FD) {
    ASTNameGenerator Gen(Ctx());
    std::string N = Gen.getName(FD);
    if (!N.empty() && N[0] == '\01')
      N.erase(0, 1);
    return N;
  }

  void attach(const Outcome &Parsed, const std::vector<SourceLocation> &Locs, SourceLocation Loc,
              FunctionDecl *FD) {
    std::vector<std::string> Names;
    std::vector<DspParam> Params;
    params(FD, Names, Params);
    std::string Fn = FD->getName().str();
    Outcome R(dsp_fp_resolve(Parsed.get(), Fn.data(), Fn.size(), Params.data(), Params.size()));
    if (S->report(R, Locs, Loc) || S->Ignore)
      return;
    FunctionDirectives &F = S->Functions[irName(FD)];
    if (F.Resolved.empty())
      F.Loc = FD->getLocation();
    F.Resolved.push_back(std::move(R));
  }

  // clang's `#pragma omp declare simd` attributes, rewritten as a clause
  // list for the Rust parser (dialect omp), at the pragma's location.
  void ompDeclareSimd(FunctionDecl *FD) {
    // clang checked these clauses itself: after its errors, ours would repeat them.
    if (CI.getDiagnostics().hasErrorOccurred())
      return;
    for (auto *A : FD->specific_attrs<OMPDeclareSimdDeclAttr>()) {
      if (!S->SeenOmpAttrs.insert(A).second)
        continue;
      Tokens T;
      SourceLocation L = A->getLocation();
      auto name = [](Expr *E) -> std::string {
        if (auto *DR = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()))
          return DR->getDecl()->getName().str();
        return "this";
      };
      auto value = [&](Expr *E) {
        Expr::EvalResult R;
        if (E->EvaluateAsInt(R, Ctx())) {
          llvm::APSInt V = R.Val.getInt();
          if (V.isNegative()) {
            T.add(2, "-", L);
            V = -V;
          }
          T.add(1, llvm::toString(V, 10), L);
        } else {
          T.add(0, name(E), L);
        }
      };
      auto list = [&](const char *Clause, Expr **Items, unsigned N, Expr **Extra, unsigned NExtra) {
        for (unsigned I = 0; I < N; ++I) {
          T.add(0, Clause, L);
          T.add(2, "(", L);
          T.add(0, name(Items[I]), L);
          if (I < NExtra && Extra[I]) {
            T.add(2, ":", L);
            value(Extra[I]);
          }
          T.add(2, ")", L);
        }
      };
      list("uniform", A->uniforms_begin(), A->uniforms_size(), nullptr, 0);
      list("linear", A->linears_begin(), A->linears_size(), A->steps_begin(), A->steps_size());
      list("aligned", A->aligneds_begin(), A->aligneds_size(), A->alignments_begin(), A->alignments_size());
      if (A->getBranchState() == OMPDeclareSimdDeclAttr::BS_Inbranch)
        T.add(0, "inbranch", L);
      if (A->getBranchState() == OMPDeclareSimdDeclAttr::BS_Notinbranch)
        T.add(0, "notinbranch", L);
      if (Expr *E = A->getSimdlen()) {
        T.add(0, "simdlen", L);
        T.add(2, "(", L);
        value(E);
        T.add(2, ")", L);
      }
      T.Locs.push_back(L);
      Outcome P = T.parse(DialectOmp);
      if (!S->report(P, T.Locs, L))
        attach(P, T.Locs, L, FD);
    }
  }

  void handleDecl(Decl *D) {
    SourceLocation B = D->getBeginLoc(), E = D->getEndLoc();
    if (B.isInvalid() || E.isInvalid())
      return;
    auto *FD = dyn_cast<FunctionDecl>(D);
    bool Body = FD && FD->doesThisDeclarationHaveABody();
    for (PendingDirective &P : S->Pending) {
      if (P.Done)
        continue;
      if (before(P.Loc, B)) {
        P.Done = true;
        if (P.IsLoop)
          S->error(P.Loc, LoopMsg);
        else if (!FD)
          S->error(P.Loc, DeclareMsg);
        else
          attach(P.Parsed, P.TokLocs, P.Loc, FD);
      } else if (before(P.Loc, E)) {
        P.Done = true;
        if (P.IsLoop && Body)
          loopDirective(P, FD);
        else
          S->error(P.Loc, P.IsLoop ? LoopMsg : DeclareMsg);
      }
    }
    if (FD) {
      ompDeclareSimd(FD);
      if (Body)
        ompLoops(FD->getBody());
    }
  }

public:
  VecConsumer(CompilerInstance &CI, std::shared_ptr<State> S) : CI(CI), S(std::move(S)) {}

  bool HandleTopLevelDecl(DeclGroupRef DG) override {
    for (Decl *D : DG)
      handleDecl(D);
    return true;
  }

  void HandleTranslationUnit(ASTContext &) override {
    for (PendingDirective &P : S->Pending)
      if (!P.Done) {
        P.Done = true;
        S->error(P.Loc, P.IsLoop ? LoopMsg : DeclareMsg);
      }
  }
};

// At LLVM's pipeline start: the contract in place of what clang emitted.
struct ContractPass : llvm::PassInfoMixin<ContractPass> {
  std::shared_ptr<State> S;
  explicit ContractPass(std::shared_ptr<State> S) : S(std::move(S)) {}

  static llvm::MDNode *property(llvm::LLVMContext &C, const char *Origin) {
    return llvm::MDNode::get(C, {llvm::MDString::get(C, "dsp.vec_function.loop"), llvm::MDString::get(C, Origin)});
  }

  // Replaces carriers in the loop ID `ID` (a distinct node) and in its
  // follow-ups; returns whether `ID` itself had one, sets Origin if any had.
  bool rewrite(llvm::MDNode *ID, const char *&Origin) {
    bool Here = false;
    for (unsigned I = 1; I < ID->getNumOperands(); ++I) {
      auto *Op = dyn_cast_or_null<llvm::MDNode>(ID->getOperand(I).get());
      if (!Op || Op->getNumOperands() < 2)
        continue;
      auto *Name = dyn_cast_or_null<llvm::MDString>(Op->getOperand(0).get());
      if (!Name)
        continue;
      if (Name->getString().contains(".followup")) {
        for (unsigned J = 1; J < Op->getNumOperands(); ++J)
          if (auto *F = dyn_cast_or_null<llvm::MDNode>(Op->getOperand(J).get()))
            if (F->isDistinct() && F->getNumOperands() > 0 && F->getOperand(0).get() == F)
              rewrite(F, Origin);
        continue;
      }
      if (Name->getString() != "llvm.loop.pipeline.initiationinterval" || Op->getNumOperands() != 2)
        continue;
      auto *V = llvm::mdconst::dyn_extract<llvm::ConstantInt>(Op->getOperand(1));
      if (!V || V->getZExtValue() < CarrierBase || V->getZExtValue() >= CarrierBase + S->LoopOrigins.size())
        continue;
      Origin = S->LoopOrigins[V->getZExtValue() - CarrierBase];
      ID->replaceOperandWith(I, property(ID->getContext(), Origin));
      Here = true;
    }
    return Here;
  }

  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &) {
    bool Changed = false;
    for (auto &[Name, FDs] : S->Functions) {
      llvm::Function *F = M.getFunction(Name);
      if (!F)
        continue;
      uint32_t Offset = F->arg_size() > 0 && F->hasParamAttribute(0, llvm::Attribute::StructRet) ? 1 : 0;
      std::vector<const DspOutcome *> List;
      for (const Outcome &O : FDs.Resolved)
        List.push_back(O.get());
      Outcome T(dsp_fp_render(List.data(), List.size(), Offset, F->arg_size()));
      size_t Tok = 0, Len = 0;
      const char *Msg = nullptr;
      if (!dsp_fp_message(T.get(), &Tok, &Msg, &Len))
        continue;
      if (dsp_fp_kind(T.get()) == KindText) {
        F->addFnAttr("dsp-vec-function", llvm::StringRef(Msg, Len));
        // LLVM's loop and SLP vectorizers skip noimplicitfloat functions:
        // dsp-wfv vectorizes this one across calls and needs its scalar body.
        F->addFnAttr(llvm::Attribute::NoImplicitFloat);
        Changed = true;
      } else {
        S->error(FDs.Loc, llvm::StringRef(Msg, Len));
      }
    }
    // Loops: the carrier becomes the property, in the loop ID and in the
    // follow-up IDs LLVM gives a loop after a transformation (clang puts
    // an OpenMP simd loop's other hints there); a carrier found only in a
    // follow-up is also added to the loop ID itself.
    std::map<llvm::MDNode *, llvm::MDNode *> Renamed;
    for (llvm::Function &F : M)
      for (llvm::BasicBlock &BB : F) {
        llvm::Instruction *T = BB.getTerminator();
        llvm::MDNode *ID = T ? T->getMetadata(llvm::LLVMContext::MD_loop) : nullptr;
        if (!ID)
          continue;
        auto Known = Renamed.find(ID);
        if (Known == Renamed.end()) {
          llvm::MDNode *New = ID;
          const char *Origin = nullptr;
          bool Here = rewrite(ID, Origin);
          if (Origin) {
            llvm::LLVMContext &C = M.getContext();
            llvm::SmallVector<llvm::Metadata *, 8> Ops(ID->op_begin(), ID->op_end());
            if (!Here)
              Ops.push_back(property(C, Origin));
            // LLVM's unroller leaves the loop whole: dsp-wfv runs it lanes
            // iterations at a time and needs its counter stepping by one.
            Ops.push_back(llvm::MDNode::get(C, {llvm::MDString::get(C, "llvm.loop.unroll.disable")}));
            New = llvm::MDNode::getDistinct(C, Ops);
            New->replaceOperandWith(0, New);
          }
          Changed |= Origin != nullptr;
          Known = Renamed.emplace(ID, New).first;
        }
        if (Known->second != ID)
          T->setMetadata(llvm::LLVMContext::MD_loop, Known->second);
      }
    return Changed ? llvm::PreservedAnalyses::none() : llvm::PreservedAnalyses::all();
  }
  static bool isRequired() { return true; }
};

class VecAction : public PluginASTAction {
  bool Ignore = false;

protected:
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI, llvm::StringRef) override {
    auto S = std::make_shared<State>();
    S->Ignore = Ignore;
    S->Diags = &CI.getDiagnostics();
    S->ErrId = CI.getDiagnostics().getCustomDiagID(DiagnosticsEngine::Error, "%0");
    CI.getPreprocessor().AddPragmaHandler(new SimdPragma(S));
    if (!Ignore)
      CI.getCodeGenOpts().PassBuilderCallbacks.push_back([S](llvm::PassBuilder &PB) {
        PB.registerPipelineStartEPCallback(
            [S](llvm::ModulePassManager &MPM, llvm::OptimizationLevel) { MPM.addPass(ContractPass(S)); });
      });
    return std::make_unique<VecConsumer>(CI, S);
  }

  bool ParseArgs(const CompilerInstance &CI, const std::vector<std::string> &Args) override {
    for (const std::string &A : Args) {
      if (A == "ignore") {
        Ignore = true;
        continue;
      }
      DiagnosticsEngine &D = CI.getDiagnostics();
      D.Report(D.getCustomDiagID(DiagnosticsEngine::Error,
                                 "unknown argument '%0' for plugin 'dspvec' (known: ignore)"))
          << A;
      return false;
    }
    return true;
  }

  ActionType getActionType() override { return AddBeforeMainAction; }
};

} // namespace

static FrontendPluginRegistry::Add<VecAction>
    Registration("dspvec", "function-level vectorization directives (#pragma simd, omp declare simd)");
