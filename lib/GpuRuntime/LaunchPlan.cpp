//===- LaunchPlan.cpp - the text form of a launch plan --------------------===//
//
// The format (docs/gpu-runtime.md, "Launch plans") is line oriented so that a
// plan is read and diffed by people, and so that every error names one line.
// Each rule on the plan's contents is stated once, in the check* helpers
// below: `parse` applies them to what it has just read (and prefixes the
// line), `verify` applies them to a plan built in code.
//
//===----------------------------------------------------------------------===//

#include "perfdojo/GpuRuntime/LaunchPlan.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <set>
#include <sstream>

using namespace perfdojo::gpu;

namespace {

/// Host loops nest at most this deep: the scope tree's own bound
/// (kMaxScopeDepth), restated because this library stands alone.
constexpr unsigned kMaxLoopDepth = 256;
/// The widest element the runtime moves (a complex f64 pair).
constexpr int64_t kMaxElementBytes = 16;
constexpr const char *kHeader = "perfdojo-launch-plan";

//===----------------------------------------------------------------------===//
// The rules, without locations.
//===----------------------------------------------------------------------===//

/// Names are single tokens without path separators: they become file names
/// (`<buffer>.bin`) in the launcher and PTX symbols.
bool isValidName(const std::string &name) {
  if (name.empty())
    return false;
  for (char c : name) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
              (c >= '0' && c <= '9') || c == '_' || c == '$' || c == '.' ||
              c == '-';
    if (!ok)
      return false;
  }
  return true;
}

std::string checkName(const std::string &what, const std::string &name) {
  if (isValidName(name))
    return "";
  return "invalid " + what + " '" + name +
         "' (letters, digits, '_', '$', '.' and '-' only)";
}

std::string checkFormat(const std::string &format) {
  if (format == "ptx" || format == "hsaco")
    return "";
  return "unknown binary format '" + format + "' (expected ptx or hsaco)";
}

const char *getRoleName(PlanBuffer::Role role) {
  switch (role) {
  case PlanBuffer::Role::In:
    return "in";
  case PlanBuffer::Role::Out:
    return "out";
  case PlanBuffer::Role::InOut:
    return "inout";
  case PlanBuffer::Role::Scratch:
    return "scratch";
  }
  return "?";
}

std::string checkBuffer(const PlanBuffer &buffer) {
  if (std::string e = checkName("buffer name", buffer.name); !e.empty())
    return e;
  if (std::string e = checkName("element type", buffer.dtype); !e.empty())
    return e;
  if (buffer.elementBytes < 1 || buffer.elementBytes > kMaxElementBytes)
    return "element size " + std::to_string(buffer.elementBytes) +
           " of buffer '" + buffer.name + "' is not between 1 and " +
           std::to_string(kMaxElementBytes) + " bytes";
  if (buffer.elements < 1)
    return "buffer '" + buffer.name + "' has " +
           std::to_string(buffer.elements) + " elements";
  if (buffer.elements >
      std::numeric_limits<int64_t>::max() / buffer.elementBytes)
    return "buffer '" + buffer.name + "' of " +
           std::to_string(buffer.elements) + " elements of " +
           std::to_string(buffer.elementBytes) +
           " bytes overflows a 64-bit byte count";
  return "";
}

std::string checkLaunchShape(const PlanLaunch &launch, size_t numBuffers,
                             unsigned loopDepth) {
  if (std::string e = checkName("function name", launch.function); !e.empty())
    return e;
  static const char *axes[] = {"x", "y", "z"};
  for (int i = 0; i < 3; ++i) {
    if (launch.grid[i] == 0)
      return "launch " + launch.function + ": grid dimension " + axes[i] +
             " is 0";
    if (launch.block[i] == 0)
      return "launch " + launch.function + ": block dimension " + axes[i] +
             " is 0";
  }
  // cuLaunchKernel takes the dynamic shared size as an unsigned int.
  if (launch.sharedBytes > std::numeric_limits<uint32_t>::max())
    return "launch " + launch.function + ": " +
           std::to_string(launch.sharedBytes) +
           " shared bytes exceed the 32-bit range of a launch";
  for (const PlanArgument &arg : launch.arguments) {
    if (arg.kind == PlanArgument::Kind::Buffer && arg.index >= numBuffers)
      return "launch " + launch.function + ": buffer index " +
             std::to_string(arg.index) + " out of range (the plan has " +
             std::to_string(numBuffers) + " buffers)";
    if (arg.kind == PlanArgument::Kind::LoopIndex && arg.index >= loopDepth)
      return "launch " + launch.function + ": loop index " +
             std::to_string(arg.index) + " needs " +
             std::to_string(arg.index + 1) + " enclosing loops, found " +
             std::to_string(loopDepth);
  }
  return "";
}

std::string checkLoop(int64_t tripCount, unsigned depth) {
  if (tripCount < 1)
    return "loop trip count " + std::to_string(tripCount) + " is not positive";
  if (depth > kMaxLoopDepth)
    return "loops nest deeper than " + std::to_string(kMaxLoopDepth);
  return "";
}

std::string verifySteps(const std::vector<PlanStep> &steps, size_t numBuffers,
                        unsigned depth) {
  for (const PlanStep &step : steps) {
    if (step.kind == PlanStep::Kind::Launch) {
      if (std::string e = checkLaunchShape(step.launch, numBuffers, depth);
          !e.empty())
        return e;
      continue;
    }
    if (std::string e = checkLoop(step.tripCount, depth + 1); !e.empty())
      return e;
    if (std::string e = verifySteps(step.body, numBuffers, depth + 1);
        !e.empty())
      return e;
  }
  return "";
}

//===----------------------------------------------------------------------===//
// Printing.
//===----------------------------------------------------------------------===//

void printArgument(std::ostream &os, const PlanArgument &arg) {
  switch (arg.kind) {
  case PlanArgument::Kind::Buffer:
    os << " buffer:" << arg.index;
    return;
  case PlanArgument::Kind::LoopIndex:
    os << " loop:" << arg.index;
    return;
  case PlanArgument::Kind::Constant:
    os << " const:" << arg.value;
    return;
  }
}

void printSteps(std::ostream &os, const std::vector<PlanStep> &steps,
                unsigned depth) {
  std::string indent(2 * depth, ' ');
  for (const PlanStep &step : steps) {
    if (step.kind == PlanStep::Kind::Loop) {
      os << indent << "loop " << step.tripCount << "\n";
      printSteps(os, step.body, depth + 1);
      os << indent << "end\n";
      continue;
    }
    const PlanLaunch &l = step.launch;
    os << indent << "launch " << l.function << " grid " << l.grid[0] << " "
       << l.grid[1] << " " << l.grid[2] << " block " << l.block[0] << " "
       << l.block[1] << " " << l.block[2] << " shared " << l.sharedBytes
       << " args";
    for (const PlanArgument &arg : l.arguments)
      printArgument(os, arg);
    os << "\n";
  }
}

void collectLaunches(const std::vector<PlanStep> &steps,
                     std::vector<const PlanLaunch *> &launches) {
  for (const PlanStep &step : steps) {
    if (step.kind == PlanStep::Kind::Launch)
      launches.push_back(&step.launch);
    else
      collectLaunches(step.body, launches);
  }
}

//===----------------------------------------------------------------------===//
// Parsing.
//===----------------------------------------------------------------------===//

/// Decimal digits only (no sign, no spaces) into [0, max].
bool parseUnsigned(const std::string &token, uint64_t max, uint64_t &value) {
  if (token.empty() || token.size() > 20)
    return false;
  value = 0;
  for (char c : token) {
    if (c < '0' || c > '9')
      return false;
    uint64_t digit = uint64_t(c - '0');
    if (value > (max - digit) / 10)
      return false;
    value = value * 10 + digit;
  }
  return true;
}

bool parseSigned(const std::string &token, int64_t &value) {
  bool negative = !token.empty() && token[0] == '-';
  uint64_t magnitude;
  uint64_t limit =
      uint64_t(std::numeric_limits<int64_t>::max()) + (negative ? 1 : 0);
  if (!parseUnsigned(negative ? token.substr(1) : token, limit, magnitude))
    return false;
  // Two's complement negation of the magnitude, without signed overflow.
  value = negative ? int64_t(~magnitude + 1) : int64_t(magnitude);
  return true;
}

/// Reads one line's tokens in order and turns every problem into one
/// message with the line number.
class LineReader {
public:
  LineReader(unsigned line, std::vector<std::string> tokens)
      : line(line), tokens(std::move(tokens)) {}

  bool failed() const { return !error.empty(); }
  const std::string &getError() const { return error; }

  bool fail(const std::string &message) {
    if (error.empty())
      error = "line " + std::to_string(line) + ": " + message;
    return false;
  }

  bool atEnd() const { return next >= tokens.size(); }

  /// The next token, or a failure naming what was expected.
  bool take(const std::string &what, std::string &token) {
    if (failed())
      return false;
    if (atEnd())
      return fail("expected " + what + " at the end of the line");
    token = tokens[next++];
    return true;
  }

  bool expectKeyword(const std::string &keyword) {
    std::string token;
    if (!take("'" + keyword + "'", token))
      return false;
    if (token != keyword)
      return fail("expected '" + keyword + "', found '" + token + "'");
    return true;
  }

  bool takeName(const std::string &what, std::string &name) {
    if (!take(what, name))
      return false;
    if (std::string e = checkName(what, name); !e.empty())
      return fail(e);
    return true;
  }

  bool takeUnsigned(const std::string &what, uint64_t max, uint64_t &value) {
    std::string token;
    if (!take(what, token))
      return false;
    if (!parseUnsigned(token, max, value))
      return fail("expected " + what + " (a decimal number up to " +
                  std::to_string(max) + "), found '" + token + "'");
    return true;
  }

  bool takeDims(const std::string &what, std::array<uint32_t, 3> &dims) {
    static const char *axes[] = {"x", "y", "z"};
    for (int i = 0; i < 3; ++i) {
      uint64_t v;
      if (!takeUnsigned(what + " " + axes[i],
                        std::numeric_limits<uint32_t>::max(), v))
        return false;
      dims[i] = uint32_t(v);
    }
    return true;
  }

  bool expectEnd() {
    if (failed())
      return false;
    if (!atEnd())
      return fail("unexpected '" + tokens[next] + "' at the end of the line");
    return true;
  }

private:
  unsigned line;
  std::vector<std::string> tokens;
  size_t next = 0;
  std::string error;
};

std::vector<std::string> tokenize(const std::string &line) {
  std::vector<std::string> tokens;
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t'))
      ++i;
    size_t start = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t')
      ++i;
    if (i > start)
      tokens.push_back(line.substr(start, i - start));
  }
  return tokens;
}

bool parseRole(LineReader &reader, PlanBuffer::Role &role) {
  std::string token;
  if (!reader.take("a role", token))
    return false;
  for (PlanBuffer::Role r :
       {PlanBuffer::Role::In, PlanBuffer::Role::Out, PlanBuffer::Role::InOut,
        PlanBuffer::Role::Scratch}) {
    if (token == getRoleName(r)) {
      role = r;
      return true;
    }
  }
  return reader.fail("unknown role '" + token +
                     "' (expected in, out, inout or scratch)");
}

bool parseArgument(LineReader &reader, const std::string &token,
                   PlanArgument &arg) {
  size_t colon = token.find(':');
  std::string kind = token.substr(0, colon);
  std::string value = colon == std::string::npos ? "" : token.substr(colon + 1);
  if (colon == std::string::npos ||
      (kind != "buffer" && kind != "loop" && kind != "const"))
    return reader.fail("expected an argument 'buffer:I', 'loop:D' or "
                       "'const:V', found '" +
                       token + "'");
  if (kind == "const") {
    arg.kind = PlanArgument::Kind::Constant;
    if (!parseSigned(value, arg.value))
      return reader.fail("constant '" + value +
                         "' is not a decimal 64-bit integer");
    return true;
  }
  arg.kind = kind == "buffer" ? PlanArgument::Kind::Buffer
                              : PlanArgument::Kind::LoopIndex;
  uint64_t index;
  if (!parseUnsigned(value, std::numeric_limits<uint32_t>::max(), index))
    return reader.fail(kind + " index '" + value +
                       "' is not a decimal 32-bit number");
  arg.index = unsigned(index);
  return true;
}

} // namespace

std::vector<const PlanLaunch *> LaunchPlan::getLaunches() const {
  std::vector<const PlanLaunch *> launches;
  collectLaunches(steps, launches);
  return launches;
}

std::string LaunchPlan::print() const {
  std::ostringstream os;
  os << kHeader << " " << kVersion << "\n";
  os << "kernel " << kernel << "\n";
  os << "target " << target << " " << binaryFormat << "\n";
  for (const PlanBuffer &b : buffers)
    os << "buffer " << b.name << " " << b.dtype << " " << b.elementBytes << " "
       << b.elements << " " << getRoleName(b.role) << "\n";
  printSteps(os, steps, 0);
  return os.str();
}

bool LaunchPlan::verify(std::string &error) const {
  error = checkName("kernel name", kernel);
  if (error.empty())
    error = checkName("target", target);
  if (error.empty())
    error = checkFormat(binaryFormat);
  std::set<std::string> names;
  for (const PlanBuffer &b : buffers) {
    if (!error.empty())
      break;
    error = checkBuffer(b);
    if (error.empty() && !names.insert(b.name).second)
      error = "duplicate buffer name '" + b.name + "'";
  }
  if (error.empty())
    error = verifySteps(steps, buffers.size(), 0);
  return error.empty();
}

std::optional<LaunchPlan> LaunchPlan::parse(const std::string &text,
                                            std::string &error) {
  LaunchPlan plan;
  // What comes next: the header, `kernel`, `target`, then buffers and steps.
  enum class Expect { Header, Kernel, Target, Body } expect = Expect::Header;
  bool sawStep = false;
  std::set<std::string> names;
  // The open loops: the step list each appends to, and its opening line.
  std::vector<std::vector<PlanStep> *> open = {&plan.steps};
  std::vector<unsigned> openedAt;

  unsigned lineNumber = 0;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t eol = text.find('\n', pos);
    if (eol == std::string::npos)
      eol = text.size();
    std::string line = text.substr(pos, eol - pos);
    pos = eol + 1;
    ++lineNumber;
    if (!line.empty() && line.back() == '\r')
      line.pop_back();
    std::vector<std::string> tokens = tokenize(line);
    if (tokens.empty() || tokens[0][0] == '#')
      continue;
    std::string keyword = tokens[0];
    LineReader reader(lineNumber, std::move(tokens));
    reader.expectKeyword(keyword);

    switch (expect) {
    case Expect::Header: {
      if (keyword != kHeader) {
        reader.fail(std::string("expected '") + kHeader + " " +
                    std::to_string(kVersion) + "', found '" + keyword + "'");
        break;
      }
      uint64_t version;
      if (reader.takeUnsigned("a version", 1000000, version) &&
          version != uint64_t(kVersion))
        reader.fail("unsupported launch plan version " +
                    std::to_string(version) + " (this runtime reads " +
                    std::to_string(kVersion) + ")");
      reader.expectEnd();
      expect = Expect::Kernel;
      break;
    }
    case Expect::Kernel:
      if (keyword != "kernel") {
        reader.fail("expected 'kernel', found '" + keyword + "'");
        break;
      }
      reader.takeName("kernel name", plan.kernel);
      reader.expectEnd();
      expect = Expect::Target;
      break;
    case Expect::Target:
      if (keyword != "target") {
        reader.fail("expected 'target', found '" + keyword + "'");
        break;
      }
      reader.takeName("target", plan.target);
      if (reader.take("a binary format", plan.binaryFormat))
        if (std::string e = checkFormat(plan.binaryFormat); !e.empty())
          reader.fail(e);
      reader.expectEnd();
      expect = Expect::Body;
      break;
    case Expect::Body:
      if (keyword == "buffer") {
        if (sawStep) {
          reader.fail("buffers must come before the first launch or loop");
          break;
        }
        PlanBuffer b;
        uint64_t bytes, elements;
        reader.takeName("buffer name", b.name);
        reader.takeName("element type", b.dtype);
        if (reader.takeUnsigned("an element size", kMaxElementBytes, bytes))
          b.elementBytes = int64_t(bytes);
        if (reader.takeUnsigned("an element count",
                                std::numeric_limits<int64_t>::max(), elements))
          b.elements = int64_t(elements);
        parseRole(reader, b.role);
        if (!reader.expectEnd())
          break;
        if (std::string e = checkBuffer(b); !e.empty())
          reader.fail(e);
        else if (!names.insert(b.name).second)
          reader.fail("duplicate buffer name '" + b.name + "'");
        plan.buffers.push_back(std::move(b));
      } else if (keyword == "launch") {
        sawStep = true;
        PlanStep step;
        PlanLaunch &l = step.launch;
        reader.takeName("function name", l.function);
        reader.expectKeyword("grid");
        reader.takeDims("grid", l.grid);
        reader.expectKeyword("block");
        reader.takeDims("block", l.block);
        reader.expectKeyword("shared");
        reader.takeUnsigned("a shared byte count",
                            std::numeric_limits<uint32_t>::max(),
                            l.sharedBytes);
        reader.expectKeyword("args");
        std::string token;
        while (!reader.failed() && !reader.atEnd() &&
               reader.take("an argument", token)) {
          PlanArgument arg;
          if (parseArgument(reader, token, arg))
            l.arguments.push_back(arg);
        }
        if (reader.failed())
          break;
        if (std::string e = checkLaunchShape(l, plan.buffers.size(),
                                             unsigned(openedAt.size()));
            !e.empty()) {
          reader.fail(e);
          break;
        }
        open.back()->push_back(std::move(step));
      } else if (keyword == "loop") {
        sawStep = true;
        uint64_t trips;
        if (!reader.takeUnsigned("a trip count",
                                 std::numeric_limits<int64_t>::max(), trips) ||
            !reader.expectEnd())
          break;
        if (std::string e =
                checkLoop(int64_t(trips), unsigned(openedAt.size()) + 1);
            !e.empty()) {
          reader.fail(e);
          break;
        }
        PlanStep step;
        step.kind = PlanStep::Kind::Loop;
        step.tripCount = int64_t(trips);
        open.back()->push_back(std::move(step));
        // Only the innermost list grows until this loop's `end`, so the
        // pointer into the parent's last step stays valid.
        open.push_back(&open.back()->back().body);
        openedAt.push_back(lineNumber);
      } else if (keyword == "end") {
        if (!reader.expectEnd())
          break;
        if (openedAt.empty()) {
          reader.fail("'end' without an open loop");
          break;
        }
        open.pop_back();
        openedAt.pop_back();
      } else if (keyword == "kernel" || keyword == "target" ||
                 keyword == kHeader) {
        reader.fail("duplicate '" + keyword + "' line");
      } else {
        reader.fail("unknown statement '" + keyword +
                    "' (expected buffer, launch, loop or end)");
      }
      break;
    }
    if (reader.failed()) {
      error = reader.getError();
      return std::nullopt;
    }
  }

  if (expect != Expect::Body) {
    static const char *missing[] = {"the header 'perfdojo-launch-plan 1'",
                                    "a 'kernel' line", "a 'target' line"};
    error = "line " + std::to_string(std::max(lineNumber, 1u)) +
            ": the plan ends before " + missing[int(expect)];
    return std::nullopt;
  }
  if (!openedAt.empty()) {
    error = "line " + std::to_string(lineNumber) +
            ": the loop opened at line " + std::to_string(openedAt.back()) +
            " has no 'end'";
    return std::nullopt;
  }
  error.clear();
  return plan;
}
