# -*- Python -*-
import os

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "PERFDOJO"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".dojo", ".test"]
config.excludes = ["Inputs", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.perfdojo_obj_root, "test")

config.substitutions.append(("%kernels", os.path.join(config.perfdojo_src_root, "kernels")))

llvm_config.use_default_substitutions()
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)

tools = ["perfdojo-opt", "perfdojo-translate", "perfdojo-run", "perfdojo-fuzz-moves"]
llvm_config.add_tool_substitutions(tools, [config.perfdojo_tools_dir])
