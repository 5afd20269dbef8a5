// rvhal-llvm-server: the OpenCL C compiler's link, optimize and code
// generation steps in one long-lived process, so that a build does not
// start llvm-link, opt and llc (each spends ~20 ms loading libLLVM) nor
// re-read the built-in library's bitcode. It does what those tools do with
// the arguments opencl_compile.c gives them, and the same output: the
// client (llvm_server.c) falls back to the tools without it.
//
// C++ because LLVM's C API has no "link only what is needed". It is a
// separate process, not a library in the user's program: an OpenCL program
// may load another LLVM (POCL's, the ICD's other platforms).
//
// Protocol (llvm_server.c): on stdin a request is NUL-terminated strings
// ending with an empty one; on stdout the reply is one NUL-terminated
// string. Diagnostics go to the log file the request names, as the tools'
// stderr did. EOF on stdin: exit.
//
//   link-opt LOG OUT.ll MATTR KEEP KERNELS FIRST.ll MORE...   (llvm-link
//       --only-needed FIRST MORE; opt -passes=internalize,default<O2>
//       -mattr=MATTR -internalize-public-api-list=KEEP)
//     reply "ok", "clash NAME" (a kernel entry the built-in library's code
//     calls: library_name_clash in opencl_compile.c) or "error"
//   codegen LOG OUT.o IN.ll MATTR ABI DCE   (opt -passes=dce when DCE is
//       "1"; llc -O2 -filetype=obj -relocation-model=static
//       -code-model=medium -target-abi=ABI -mattr=MATTR -lsr-term-fold
//       -force-precise-rotation-cost)
//     reply "ok" or "error"
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

#include "llvm/ADT/SmallString.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/CodeGen/CommandFlags.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/DiagnosticPrinter.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/IRReader/IRReader.h"
#include "llvm/Linker/Linker.h"
#include "llvm/MC/MCTargetOptionsCommandFlags.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Transforms/IPO/Internalize.h"
#include "llvm/Transforms/Scalar/DCE.h"

using namespace llvm;

static codegen::RegisterCodeGenFlags CGF; // llc's option defaults (TargetOptions from flags)
static mc::RegisterMCTargetOptionsFlags MOF;

namespace {

// Diagnostics into the request's log, as the tools print them on stderr.
struct LogHandler : DiagnosticHandler {
  raw_ostream &OS;
  bool &Failed;
  LogHandler(raw_ostream &OS, bool &Failed) : OS(OS), Failed(Failed) {}
  bool handleDiagnostics(const DiagnosticInfo &DI) override {
    if (DI.getSeverity() == DS_Remark) return true; /* llc prints none unless asked */
    if (DI.getSeverity() == DS_Error) Failed = true;
    OS << (DI.getSeverity() == DS_Error ? "error: " : DI.getSeverity() == DS_Warning ? "warning: " : "note: ");
    DiagnosticPrinterRawOStream DP(OS);
    DI.print(DP);
    OS << "\n";
    return true;
  }
};

// The built-in library's bitcode stays in memory; read again when the file changes.
struct CachedFile {
  std::unique_ptr<MemoryBuffer> Buf;
  time_t MTime = 0;
  long MTimeNs = 0;
  off_t Size = -1;
};
std::map<std::string, CachedFile> Files;

const MemoryBuffer *cachedFile(const std::string &Path, raw_ostream &Log) {
  struct stat St;
  if (stat(Path.c_str(), &St) != 0) {
    Log << "error: cannot stat " << Path << "\n";
    return nullptr;
  }
  CachedFile &C = Files[Path];
  if (!C.Buf || C.MTime != St.st_mtim.tv_sec || C.MTimeNs != St.st_mtim.tv_nsec || C.Size != St.st_size) {
    auto B = MemoryBuffer::getFile(Path);
    if (!B) {
      Log << "error: cannot read " << Path << ": " << B.getError().message() << "\n";
      C = CachedFile();
      return nullptr;
    }
    C.Buf = std::move(*B);
    C.MTime = St.st_mtim.tv_sec;
    C.MTimeNs = St.st_mtim.tv_nsec;
    C.Size = St.st_size;
  }
  return C.Buf.get();
}

// llvm-link's loadFile: bitcode lazily (only what is linked is read), text whole.
std::unique_ptr<Module> loadInput(const std::string &Path, LLVMContext &Ctx, raw_ostream &Log) {
  SMDiagnostic Err;
  std::unique_ptr<Module> M;
  if (Path.size() > 3 && Path.compare(Path.size() - 3, 3, ".bc") == 0) {
    const MemoryBuffer *B = cachedFile(Path, Log);
    if (!B) return nullptr;
    auto L = getOwningLazyBitcodeModule(MemoryBuffer::getMemBuffer(B->getMemBufferRef(), false), Ctx);
    if (!L) {
      Log << "error: " << Path << ": " << toString(L.takeError()) << "\n";
      return nullptr;
    }
    M = std::move(*L);
  } else {
    M = parseIRFile(Path, Err, Ctx);
    if (!M) Err.print("rvhal-llvm-server", Log);
  }
  return M;
}

// codegen::setFunctionAttributes for -mattr alone (opt and llc both apply it).
void appendFeatures(Module &M, StringRef Features) {
  if (Features.empty()) return;
  for (Function &F : M) {
    StringRef Old = F.getFnAttribute("target-features").getValueAsString();
    if (Old.empty()) {
      F.addFnAttr("target-features", Features);
    } else {
      SmallString<256> Appended(Old);
      Appended.push_back(',');
      Appended.append(Features);
      F.addFnAttr("target-features", Appended);
    }
  }
}

std::unique_ptr<TargetMachine> targetMachine(const Module &M, StringRef Features, StringRef ABI, raw_ostream &Log) {
  Triple T(M.getTargetTriple());
  std::string Err;
  const Target *Tgt = TargetRegistry::lookupTarget("", T, Err);
  if (!Tgt) {
    Log << "error: " << Err << "\n";
    return nullptr;
  }
  TargetOptions Opts = codegen::InitTargetOptionsFromCodeGenFlags(T);
  if (!ABI.empty()) Opts.MCOptions.ABIName = ABI.str();
  return std::unique_ptr<TargetMachine>(Tgt->createTargetMachine(T.getTriple(), "", Features, Opts, Reloc::Static,
                                                                 CodeModel::Medium, CodeGenOpt::Default));
}

std::set<std::string> splitList(StringRef S) {
  std::set<std::string> Out;
  SmallVector<StringRef, 16> Parts;
  S.split(Parts, ',', -1, false);
  for (StringRef P : Parts) Out.insert(P.str());
  return Out;
}

bool writeText(const Module &M, const std::string &Path, raw_ostream &Log) {
  std::error_code EC;
  raw_fd_ostream OS(Path, EC);
  if (EC) {
    Log << "error: cannot write " << Path << ": " << EC.message() << "\n";
    return false;
  }
  M.print(OS, nullptr);
  return true;
}

std::string linkOpt(const std::vector<std::string> &A, raw_ostream &Log) {
  // A: LOG OUT MATTR KEEP KERNELS FIRST MORE...
  if (A.size() < 6) return "error";
  LLVMContext Ctx;
  bool Failed = false;
  Ctx.setDiagnosticHandler(std::make_unique<LogHandler>(Log, Failed));
  Ctx.enableDebugTypeODRUniquing();
  auto Composite = std::make_unique<Module>("llvm-link", Ctx);
  Linker L(*Composite);
  for (size_t I = 5; I < A.size(); I++) {
    std::unique_ptr<Module> M = loadInput(A[I], Ctx, Log);
    if (!M) return "error";
    if (L.linkInModule(std::move(M), I == 5 ? Linker::Flags::None : Linker::Flags::LinkOnlyNeeded) || Failed)
      return "error";
  }
  if (verifyModule(*Composite, &Log)) return "error";
  for (const std::string &K : splitList(A[4])) {
    const Function *F = Composite->getFunction(K);
    if (F && !F->use_empty()) return "clash " + K;
  }

  appendFeatures(*Composite, A[2]);
  std::unique_ptr<TargetMachine> TM = targetMachine(*Composite, A[2], "", Log);
  if (!TM) return "error";
  LoopAnalysisManager LAM;
  FunctionAnalysisManager FAM;
  CGSCCAnalysisManager CGAM;
  ModuleAnalysisManager MAM;
  PipelineTuningOptions PTO;
  PassBuilder PB(TM.get(), PTO);
  PB.registerModuleAnalyses(MAM);
  PB.registerCGSCCAnalyses(CGAM);
  PB.registerFunctionAnalyses(FAM);
  PB.registerLoopAnalyses(LAM);
  PB.crossRegisterProxies(LAM, FAM, CGAM, MAM);
  std::set<std::string> Keep = splitList(A[3]);
  ModulePassManager MPM;
  MPM.addPass(VerifierPass());
  MPM.addPass(InternalizePass([&Keep](const GlobalValue &GV) { return Keep.count(GV.getName().str()) != 0; }));
  MPM.addPass(PB.buildPerModuleDefaultPipeline(OptimizationLevel::O2));
  MPM.addPass(VerifierPass());
  MPM.run(*Composite, MAM);
  if (Failed) return "error";
  return writeText(*Composite, A[1], Log) ? "ok" : "error";
}

std::string emitObject(const std::vector<std::string> &A, raw_ostream &Log) {
  // A: LOG OUT.o IN.ll MATTR ABI DCE
  if (A.size() != 6) return "error";
  LLVMContext Ctx;
  bool Failed = false;
  Ctx.setDiagnosticHandler(std::make_unique<LogHandler>(Log, Failed));
  SMDiagnostic Err;
  std::unique_ptr<Module> M = parseIRFile(A[2], Err, Ctx);
  if (!M) {
    Err.print("rvhal-llvm-server", Log);
    return "error";
  }
  if (A[5] == "1") {
    FunctionPassManager FPM;
    FPM.addPass(DCEPass());
    FunctionAnalysisManager FAM;
    PassBuilder PB;
    PB.registerFunctionAnalyses(FAM);
    for (Function &F : *M)
      if (!F.isDeclaration()) FPM.run(F, FAM);
  }
  appendFeatures(*M, A[3]);
  std::unique_ptr<TargetMachine> TM = targetMachine(*M, A[3], A[4], Log);
  if (!TM) return "error";
  if (verifyModule(*M, &Log)) return "error";
  std::error_code EC;
  raw_fd_ostream OS(A[1], EC);
  if (EC) {
    Log << "error: cannot write " << A[1] << ": " << EC.message() << "\n";
    return "error";
  }
  TargetLibraryInfoImpl TLII(Triple(M->getTargetTriple()));
  legacy::PassManager PM;
  PM.add(new TargetLibraryInfoWrapperPass(TLII));
  if (TM->addPassesToEmitFile(PM, OS, nullptr, CGFT_ObjectFile, false)) {
    Log << "error: the target cannot emit an object file\n";
    return "error";
  }
  PM.run(*M);
  return Failed ? "error" : "ok";
}

bool readRequest(std::vector<std::string> &Out) {
  Out.clear();
  std::string Cur;
  for (int C; (C = getchar()) != EOF;) {
    if (C != 0) {
      Cur.push_back((char)C);
      continue;
    }
    if (Cur.empty()) return true;
    Out.push_back(std::move(Cur));
    Cur.clear();
  }
  return false;
}

} // namespace

int main(int argc, char **argv) {
  if (argc > 1) {
    fprintf(stderr, "usage: %s (started by librvhal's OpenCL C compiler; requests on stdin)\n", argv[0]);
    return 2;
  }
  LLVMInitializeRISCVTargetInfo();
  LLVMInitializeRISCVTarget();
  LLVMInitializeRISCVTargetMC();
  LLVMInitializeRISCVAsmPrinter();
  LLVMInitializeRISCVAsmParser(); // module asm
  const char *Opts[] = {"rvhal-llvm-server", "-lsr-term-fold", "-force-precise-rotation-cost"};
  cl::ParseCommandLineOptions(3, Opts);
  std::vector<std::string> Req;
  while (readRequest(Req)) {
    std::string Reply = "error";
    int Fd = Req.size() >= 2 ? open(Req[1].c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600) : -1;
    if (Fd >= 0) {
      // What LLVM prints on stderr itself (llc's spill figures after a
      // frame-size warning, a fatal error's message) goes to the log too.
      raw_fd_ostream Log(Fd, false, true);
      int Saved = dup(2);
      dup2(Fd, 2);
      std::vector<std::string> Args(Req.begin() + 1, Req.end());
      if (Req[0] == "link-opt") Reply = linkOpt(Args, Log);
      else if (Req[0] == "codegen") Reply = emitObject(Args, Log);
      else Log << "error: rvhal-llvm-server: unknown request '" << Req[0] << "'\n";
      Log.flush();
      if (Saved >= 0) {
        dup2(Saved, 2);
        close(Saved);
      }
      close(Fd);
    }
    fwrite(Reply.c_str(), 1, Reply.size() + 1, stdout);
    fflush(stdout);
  }
  return 0;
}
