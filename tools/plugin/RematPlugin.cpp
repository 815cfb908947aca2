// RematPlugin.cpp: the mlir-opt pass plugin (libRematPlugin.so). C++ only because MLIR
// has no C entry point for registering a pass by name.
//
// Every pass of remat's registry that is implemented is registered as a pass *pipeline*
// named by its argument: a pipeline's builder receives the raw option text, which
// rematCreatePass parses exactly as remat-opt does, so
//   mlir-opt --irdl-file=rt.irdl.mlir --load-pass-plugin=libRematPlugin.so
//            -p 'builtin.module(remat-mincut{scalar-factor=0.1})'
// builds the same pass as `remat-opt --remat-mincut=scalar-factor=0.1`. (A registered
// *pass* would have its options parsed by MLIR against C++ option declarations, which a
// pass built through the C API does not have.) The pass itself is the MlirPass from the C
// constructor, whose TypeID is a static object in remat, the same on every call.
#include "mlir/CAPI/Pass.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Tools/Plugins/PassPlugin.h"
#include "remat-c/Remat.h"

#include <memory>
#include <string>

static void registerRematPasses() {
  for (intptr_t i = 0; const RematPassInfo *info = rematGetPassInfo(i); i++) {
    std::string argument = info->argument;
    mlir::registerPassPipeline(
        argument, info->summary,
        [argument](mlir::OpPassManager &pm, llvm::StringRef options,
                   llvm::function_ref<llvm::LogicalResult(const llvm::Twine &)> onError) {
          char error[512];
          MlirPass pass =
              rematCreatePass(argument.c_str(), options.str().c_str(), error, sizeof error);
          if (!pass.ptr)
            return onError(argument + ": " + error);
          pm.addPass(std::unique_ptr<mlir::Pass>(unwrap(pass)));
          return llvm::success();
        },
        [](llvm::function_ref<void(const mlir::detail::PassOptions &)>) {});
  }
}

extern "C" LLVM_ATTRIBUTE_WEAK mlir::PassPluginLibraryInfo mlirGetPassPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "remat", rematVersion(), registerRematPasses};
}
