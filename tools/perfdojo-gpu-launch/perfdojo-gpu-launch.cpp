//===- perfdojo-gpu-launch.cpp - run a launch plan on a CUDA GPU ----------===//
//
// perfdojo-gpu-launch PLAN BINARY (--inputs DIR | --generate-inputs RECIPE)
//                     --outputs DIR [--save-inputs DIR]
//                     [--warmup N] [--reps N] [--device N] [--json FILE]
//
// Runs a launch plan and its PTX module on a GPU through the CUDA driver:
// reads DIR/<buffer>.bin (raw bytes) for every in and inout buffer, or
// regenerates them from a bundle's input recipe (GpuRuntime/InputRecipe.h;
// --save-inputs writes what it generated), writes
// <buffer>.bin for every out and inout buffer, prints the device, each
// function's registers and the median and minimum time, and with --json
// writes the same as JSON (docs/gpu-runtime.md, "The launcher").
//
// It links the GpuRuntime library alone (no LLVM, no MLIR):
// scripts/build-gpu-launcher.sh builds it with a bare C++ compiler on a GPU
// machine, and it needs only libc and libdl there.
//
//===----------------------------------------------------------------------===//

#include "perfdojo/GpuRuntime/CudaRuntime.h"
#include "perfdojo/GpuRuntime/InputRecipe.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <sys/stat.h>

using namespace perfdojo::gpu;

namespace {

const char *kUsage =
    "usage: perfdojo-gpu-launch PLAN BINARY (--inputs DIR | --generate-inputs "
    "RECIPE)\n"
    "                           --outputs DIR [--save-inputs DIR]\n"
    "                           [--warmup N] [--reps N] [--device N] "
    "[--json FILE]\n";

struct Flags {
  std::string plan, binary, inputs, recipe, saveInputs, outputs, json;
  GpuRunOptions run;
};

int fail(const std::string &message) {
  std::fprintf(stderr, "perfdojo-gpu-launch: error: %s\n", message.c_str());
  return 1;
}

bool parseCount(const std::string &text, int min, int &value) {
  if (text.empty() || text.size() > 9 ||
      text.find_first_not_of("0123456789") != std::string::npos)
    return false;
  value = std::atoi(text.c_str());
  return value >= min;
}

/// Reads the command line; on failure, false and `error` says why.
bool parseFlags(int argc, char **argv, Flags &flags, std::string &error) {
  std::vector<std::string> positional;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg.rfind("--", 0) != 0) {
      positional.push_back(arg);
      continue;
    }
    std::string name = arg, value;
    bool hasValue = false;
    if (size_t eq = arg.find('='); eq != std::string::npos) {
      name = arg.substr(0, eq);
      value = arg.substr(eq + 1);
      hasValue = true;
    }
    if (name == "--help") {
      error = "help";
      return false;
    }
    if (!hasValue) {
      if (i + 1 >= argc) {
        error = name + " needs a value";
        return false;
      }
      value = argv[++i];
    }
    if (name == "--inputs") {
      flags.inputs = value;
    } else if (name == "--generate-inputs") {
      flags.recipe = value;
    } else if (name == "--save-inputs") {
      flags.saveInputs = value;
    } else if (name == "--outputs") {
      flags.outputs = value;
    } else if (name == "--json") {
      flags.json = value;
    } else if (name == "--warmup" || name == "--reps" || name == "--device") {
      int &field = name == "--warmup" ? flags.run.warmup
                   : name == "--reps" ? flags.run.reps
                                      : flags.run.device;
      if (!parseCount(value, name == "--reps" ? 1 : 0, field)) {
        error = name + " needs a number" +
                (name == "--reps" ? " of at least 1" : "") + ", got '" + value +
                "'";
        return false;
      }
    } else {
      error = "unknown option " + name;
      return false;
    }
  }
  if (positional.size() != 2) {
    error = "expected a plan and a binary, got " +
            std::to_string(positional.size()) + " file(s)";
    return false;
  }
  flags.plan = positional[0];
  flags.binary = positional[1];
  if (flags.inputs.empty() == flags.recipe.empty()) {
    error = "exactly one of --inputs and --generate-inputs is required";
    return false;
  }
  if (flags.outputs.empty()) {
    error = "--outputs is required";
    return false;
  }
  return true;
}

bool readFile(const std::string &path, std::string &contents,
              std::string &error) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    error = "cannot read " + path + ": " + std::strerror(errno);
    return false;
  }
  std::ostringstream buffer;
  buffer << in.rdbuf();
  contents = buffer.str();
  return true;
}

/// Reads an input buffer's file, which must hold exactly its bytes.
bool readInput(const std::string &dir, const PlanBuffer &b,
               std::vector<char> &data, std::string &error) {
  std::string path = dir + "/" + b.name + ".bin";
  struct stat info;
  if (stat(path.c_str(), &info) != 0) {
    error = "input " + b.name + ": cannot read " + path + ": " +
            std::strerror(errno);
    return false;
  }
  if (!S_ISREG(info.st_mode) || info.st_size != b.getBytes()) {
    error = "input " + b.name + ": " + path + " has " +
            std::to_string(info.st_size) + " bytes, buffer " + b.name + " (" +
            std::to_string(b.elements) + " x " + b.dtype + ") needs " +
            std::to_string(b.getBytes());
    return false;
  }
  std::ifstream in(path, std::ios::binary);
  data.resize(size_t(b.getBytes()));
  if (!in.read(data.data(), std::streamsize(data.size()))) {
    error = "input " + b.name + ": cannot read " + path;
    return false;
  }
  return true;
}

bool writeFile(const std::string &path, const char *data, size_t size,
               std::string &error) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out || !out.write(data, std::streamsize(size))) {
    error = "cannot write " + path + ": " + std::strerror(errno);
    return false;
  }
  return true;
}

/// Writes `<buffer>.bin` into `dir` (created if missing) for every argument
/// buffer of `plan` whose role is not `skip`, from `data` (one entry per
/// argument buffer, plan order), and says what it wrote.
bool writeBuffers(const LaunchPlan &plan,
                  const std::vector<std::vector<char>> &data,
                  PlanBuffer::Role skip, const std::string &dir,
                  std::string &error) {
  if (mkdir(dir.c_str(), 0777) != 0 && errno != EEXIST) {
    error = "cannot create " + dir + ": " + std::strerror(errno);
    return false;
  }
  size_t argument = 0;
  std::string written;
  for (const PlanBuffer &b : plan.buffers) {
    if (!b.isArgument())
      continue;
    const std::vector<char> &bytes = data[argument++];
    if (b.role == skip)
      continue;
    if (!writeFile(dir + "/" + b.name + ".bin", bytes.data(), bytes.size(),
                   error))
      return false;
    written += (written.empty() ? "" : ", ") + b.name + ".bin";
  }
  if (!written.empty())
    std::printf("wrote %s to %s\n", written.c_str(), dir.c_str());
  return true;
}

/// Launches per execution with loops expanded, saturating.
uint64_t countLaunches(const std::vector<PlanStep> &steps) {
  const uint64_t max = ~uint64_t(0);
  uint64_t total = 0;
  for (const PlanStep &step : steps) {
    uint64_t n = 1;
    if (step.kind == PlanStep::Kind::Loop) {
      uint64_t body = countLaunches(step.body);
      uint64_t trips = uint64_t(step.tripCount);
      n = body && trips > max / body ? max : body * trips;
    }
    total = total > max - n ? max : total + n;
  }
  return total;
}

std::string jsonString(const std::string &s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += char(c);
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c < 0x20) {
      char escaped[8];
      std::snprintf(escaped, sizeof(escaped), "\\u%04x", c);
      out += escaped;
    } else {
      out += char(c);
    }
  }
  return out + "\"";
}

std::string jsonNumber(double v) {
  if (!std::isfinite(v))
    return "null";
  char text[32];
  std::snprintf(text, sizeof(text), "%.9g", v);
  return text;
}

std::string jsonDims(const std::array<int, 3> &d) {
  return "[" + std::to_string(d[0]) + ", " + std::to_string(d[1]) + ", " +
         std::to_string(d[2]) + "]";
}

/// The JSON report; field names are listed in docs/gpu-runtime.md.
std::string toJson(const LaunchPlan &plan, const Flags &flags,
                   const GpuRunResult &r) {
  const DeviceInfo &d = r.device;
  std::ostringstream os;
  os << "{\n  \"version\": 1,\n"
     << "  \"kernel\": " << jsonString(plan.kernel) << ",\n"
     << "  \"target\": " << jsonString(plan.target) << ",\n"
     << "  \"device\": {\n"
     << "    \"ordinal\": " << d.ordinal << ",\n"
     << "    \"name\": " << jsonString(d.name) << ",\n"
     << "    \"arch\": " << jsonString(d.getArch()) << ",\n"
     << "    \"driverVersion\": " << d.driverVersion << ",\n"
     << "    \"multiprocessors\": " << d.multiprocessors << ",\n"
     << "    \"warpSize\": " << d.warpSize << ",\n"
     << "    \"maxThreadsPerBlock\": " << d.maxThreadsPerBlock << ",\n"
     << "    \"maxBlockDims\": " << jsonDims(d.maxBlockDims) << ",\n"
     << "    \"maxGridDims\": " << jsonDims(d.maxGridDims) << ",\n"
     << "    \"sharedBytesPerBlock\": " << d.sharedBytesPerBlock << ",\n"
     << "    \"sharedBytesPerBlockOptin\": " << d.sharedBytesPerBlockOptin
     << ",\n"
     << "    \"registersPerBlock\": " << d.registersPerBlock << "\n"
     << "  },\n  \"functions\": [";
  for (size_t i = 0; i < r.functions.size(); ++i) {
    const FunctionInfo &f = r.functions[i];
    os << (i ? "," : "") << "\n    {\"name\": " << jsonString(f.name)
       << ", \"registers\": " << f.registers
       << ", \"maxThreadsPerBlock\": " << f.maxThreadsPerBlock
       << ", \"staticSharedBytes\": " << f.staticSharedBytes
       << ", \"localBytes\": " << f.localBytes << "}";
  }
  os << (r.functions.empty() ? "" : "\n  ") << "],\n"
     << "  \"warmup\": " << flags.run.warmup << ",\n"
     << "  \"reps\": " << flags.run.reps << ",\n"
     << "  \"timesMs\": [";
  for (size_t i = 0; i < r.timesMs.size(); ++i)
    os << (i ? ", " : "") << jsonNumber(r.timesMs[i]);
  os << "],\n"
     << "  \"medianMs\": " << jsonNumber(r.medianMs) << ",\n"
     << "  \"minMs\": " << jsonNumber(r.minMs) << ",\n"
     << "  \"jitLog\": " << jsonString(r.jitLog) << "\n}\n";
  return os.str();
}

void printSummary(const LaunchPlan &plan, const Flags &flags,
                  const GpuRunResult &r) {
  const DeviceInfo &d = r.device;
  std::printf("device %d: %s, %s, %d SMs, driver %d.%d\n", d.ordinal,
              d.name.c_str(), d.getArch().c_str(), d.multiprocessors,
              d.driverVersion / 1000, d.driverVersion % 1000 / 10);
  std::printf("plan %s: %zu buffers, %llu launches per execution\n",
              plan.kernel.c_str(), plan.buffers.size(),
              (unsigned long long)countLaunches(plan.steps));
  for (const FunctionInfo &f : r.functions)
    std::printf("function %s: %d registers, %d static shared bytes, %d local "
                "bytes, at most %d threads per block\n",
                f.name.c_str(), f.registers, f.staticSharedBytes, f.localBytes,
                f.maxThreadsPerBlock);
  std::printf("time: median %.4f ms, min %.4f ms over %d reps (%d warmup)\n",
              r.medianMs, r.minMs, flags.run.reps, flags.run.warmup);
}

int run(const Flags &flags) {
  std::string error, text, binary;
  if (!readFile(flags.plan, text, error))
    return fail(error);
  std::optional<LaunchPlan> plan = LaunchPlan::parse(text, error);
  if (!plan)
    return fail(flags.plan + ": " + error);
  if (!readFile(flags.binary, binary, error))
    return fail(error);

  std::vector<std::vector<char>> arguments;
  if (!flags.recipe.empty()) {
    std::string recipeText;
    InputRecipe recipe;
    if (!readFile(flags.recipe, recipeText, error))
      return fail(error);
    if (!InputRecipe::parse(recipeText, recipe, error))
      return fail(flags.recipe + ": " + error);
    if (!generateInputs(*plan, recipe, arguments, error))
      return fail(flags.recipe + ": " + error);
  } else {
    for (const PlanBuffer &b : plan->buffers) {
      if (!b.isArgument())
        continue;
      std::vector<char> &data = arguments.emplace_back();
      if (b.role != PlanBuffer::Role::Out &&
          !readInput(flags.inputs, b, data, error))
        return fail(error);
    }
  }
  if (!flags.saveInputs.empty() &&
      !writeBuffers(*plan, arguments, PlanBuffer::Role::Out, flags.saveInputs,
                    error))
    return fail(error);

  GpuRunResult result;
  if (!runPlan(*plan, binary, arguments, flags.run, result, error))
    return fail(error);
  printSummary(*plan, flags, result);

  if (!writeBuffers(*plan, result.outputs, PlanBuffer::Role::In,
                    flags.outputs, error))
    return fail(error);

  if (!flags.json.empty()) {
    std::string json = toJson(*plan, flags, result);
    if (!writeFile(flags.json, json.data(), json.size(), error))
      return fail(error);
  }
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  Flags flags;
  std::string error;
  if (!parseFlags(argc, argv, flags, error)) {
    if (error == "help") {
      std::printf("%s", kUsage);
      return 0;
    }
    std::fprintf(stderr, "perfdojo-gpu-launch: error: %s\n%s", error.c_str(),
                 kUsage);
    return 2;
  }
  return run(flags);
}
