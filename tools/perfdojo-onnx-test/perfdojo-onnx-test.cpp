//===- perfdojo-onnx-test.cpp - ONNX's backend node tests -----------------===//
//
//   perfdojo-onnx-test [--jobs N] [--engines=both|jit|interp] [--timeout S]
//                      [--json FILE] DIR...
//
// DIR is one node test (a directory with model.onnx) or a directory of
// them. Each test runs in a child process of its own (a crash or a hang
// costs only that test), up to --jobs at once. Prints `name: pass`,
// `name: fail: why` or `name: unsupported: why` per test, in name order,
// then the summary by test and by operator type (docs/onnx.md). Exit status
// 1 when a test fails.
//
//===----------------------------------------------------------------------===//

#include "perfdojo/Testing/OnnxNodeTest.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Threading.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <map>
#include <mutex>

using namespace llvm;
using namespace perfdojo::onnx;

static cl::list<std::string> paths(cl::Positional, cl::ZeroOrMore,
                                   cl::desc("<test or directory of tests>..."));
static cl::opt<unsigned> jobs("jobs", cl::init(0),
                              cl::desc("Tests run at once (default: cores)"));
static cl::opt<std::string> engines("engines", cl::init("both"),
                                    cl::desc("both, jit or interp"));
static cl::opt<unsigned> timeout("timeout", cl::init(120),
                                 cl::desc("Seconds one test may take"));
static cl::opt<std::string> jsonFile("json", cl::init(""),
                                     cl::desc("Also write every result here"));
static cl::opt<std::string> one("one", cl::init(""), cl::Hidden,
                                cl::desc("Run one test in this process and "
                                         "print its result as JSON"));

static NodeTestOptions getOptions() {
  NodeTestOptions options;
  options.jit = engines != "interp";
  options.interpreter = engines != "jit";
  return options;
}

/// The test directories under `path`, sorted.
static std::vector<std::string> findTests(StringRef path) {
  if (sys::fs::exists(path + "/model.onnx"))
    return {path.rtrim('/').str()};
  std::vector<std::string> tests;
  std::error_code ec;
  for (sys::fs::directory_iterator it(path, ec), end; it != end && !ec;
       it.increment(ec))
    if (sys::fs::exists(it->path() + "/model.onnx"))
      tests.push_back(it->path());
  llvm::sort(tests);
  return tests;
}

/// Runs `test` in a child process; a crash or timeout is a failure.
static NodeTestResult runIsolated(StringRef self, StringRef test) {
  NodeTestResult result;
  result.name = sys::path::filename(test).str();
  SmallString<128> output;
  sys::fs::createTemporaryFile("perfdojo-onnx-test", "json", output);
  std::string engineFlag = "--engines=" + engines;
  std::string oneFlag = ("--one=" + test).str();
  SmallVector<StringRef> args = {self, oneFlag, engineFlag};
  std::optional<StringRef> redirects[] = {std::nullopt, StringRef(output),
                                          StringRef("")};
  std::string error;
  auto start = std::chrono::steady_clock::now();
  int rc = sys::ExecuteAndWait(self, args, std::nullopt, redirects, timeout, 0,
                               &error);
  double seconds = std::chrono::duration<double>(
                       std::chrono::steady_clock::now() - start)
                       .count();
  auto buffer = MemoryBuffer::getFile(output);
  sys::fs::remove(output);
  if (rc != 0 || !buffer) {
    result.status = NodeTestResult::Status::Fail;
    result.message =
        rc == -2 && seconds >= timeout
            ? "timed out after " + std::to_string(timeout) + " s"
        : rc < 0 ? "crashed: " + error
                 : "the test process exited with " + std::to_string(rc);
    return result;
  }
  Expected<json::Value> value = json::parse((*buffer)->getBuffer());
  const json::Object *object = value ? value->getAsObject() : nullptr;
  if (!object) {
    if (!value)
      consumeError(value.takeError());
    result.message = "the test process printed no result";
    return result;
  }
  StringRef status = object->getString("status").value_or("fail");
  result.status = status == "pass"          ? NodeTestResult::Status::Pass
                  : status == "unsupported" ? NodeTestResult::Status::Unsupported
                                            : NodeTestResult::Status::Fail;
  result.message = object->getString("message").value_or("").str();
  if (const json::Array *ops = object->getArray("operators"))
    for (const json::Value &op : *ops)
      if (auto s = op.getAsString())
        result.operators.push_back(s->str());
  return result;
}

static json::Object toJSON(const NodeTestResult &r) {
  json::Array ops;
  for (const std::string &op : r.operators)
    ops.push_back(op);
  return json::Object{{"name", r.name},
                      {"status", stringifyStatus(r.status)},
                      {"message", r.message},
                      {"operators", std::move(ops)}};
}

int main(int argc, char **argv) {
  InitLLVM init(argc, argv);
  cl::ParseCommandLineOptions(argc, argv, "ONNX backend node tests\n");
  if (engines != "both" && engines != "jit" && engines != "interp") {
    errs() << "perfdojo-onnx-test: --engines must be both, jit or interp\n";
    return 2;
  }
  if (!one.empty()) {
    outs() << json::Value(toJSON(runNodeTest(one, getOptions()))) << "\n";
    return 0;
  }
  if (paths.empty()) {
    errs() << "perfdojo-onnx-test: give a node test or a directory of them "
              "(Debian's: /usr/share/libonnx-testdata/data/node)\n";
    return 2;
  }
  std::string self = sys::fs::getMainExecutable(argv[0], (void *)&main);
  std::vector<std::string> tests;
  for (const std::string &path : paths) {
    std::vector<std::string> found = findTests(path);
    if (found.empty()) {
      errs() << "perfdojo-onnx-test: no node test (model.onnx) in '" << path
             << "'\n";
      return 2;
    }
    llvm::append_range(tests, found);
  }

  // Name order, whatever order the arguments came in.
  llvm::sort(tests, [](const std::string &a, const std::string &b) {
    return sys::path::filename(a) < sys::path::filename(b);
  });
  std::vector<NodeTestResult> results(tests.size());
  std::mutex progress;
  unsigned done = 0;
  bool live = sys::Process::StandardErrIsDisplayed();
  {
    DefaultThreadPool pool(hardware_concurrency(jobs));
    for (size_t i = 0; i < tests.size(); ++i)
      pool.async([&, i] {
        results[i] = runIsolated(self, tests[i]);
        std::lock_guard<std::mutex> lock(progress);
        ++done;
        if (live)
          errs() << "\r" << done << "/" << tests.size() << " tests";
      });
    pool.wait();
  }
  if (live)
    errs() << "\n";

  // One line per test, then the summary by test and by operator type.
  unsigned counts[3] = {0, 0, 0};
  std::map<std::string, std::array<unsigned, 3>> byOperator;
  for (const NodeTestResult &r : results) {
    outs() << r.name << ": " << stringifyStatus(r.status);
    if (r.status != NodeTestResult::Status::Pass)
      outs() << ": " << r.message;
    outs() << "\n";
    ++counts[int(r.status)];
    for (const std::string &op : r.operators)
      ++byOperator[op][int(r.status)];
  }
  outs() << "\nby test: " << counts[0] << " pass, " << counts[1] << " fail, "
         << counts[2] << " unsupported of " << results.size() << "\n";
  unsigned allPass = 0, somePass = 0;
  outs() << "by operator (pass/fail/unsupported tests):\n";
  for (const auto &[op, c] : byOperator) {
    outs() << "  " << op << ": " << c[0] << "/" << c[1] << "/" << c[2] << "\n";
    somePass += c[0] > 0;
    allPass += c[0] > 0 && c[1] == 0 && c[2] == 0;
  }
  outs() << "operators: " << byOperator.size() << " types, " << allPass
         << " with every test passing, " << somePass
         << " with at least one\n";
  if (!jsonFile.empty()) {
    json::Array array;
    for (const NodeTestResult &r : results)
      array.push_back(toJSON(r));
    std::error_code ec;
    raw_fd_ostream os(jsonFile, ec);
    if (ec) {
      errs() << "perfdojo-onnx-test: cannot write '" << jsonFile
             << "': " << ec.message() << "\n";
      return 2;
    }
    os << formatv("{0:2}", json::Value(std::move(array))) << "\n";
  }
  return counts[1] ? 1 : 0;
}
