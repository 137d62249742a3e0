// The fault matrix's judge and its table (FaultMatrix.h says the rules).
#include "Util/Simulator/Run/FaultMatrix.h"

#include "Util/Simulator/Run/Ensemble.h"

#include <algorithm>
#include <cstdio>
#include <sstream>

namespace nao
{
namespace
{
constexpr double pressWindow =
    1.0; ///< s after the press within which the sit-down must begin (debounce 50 ms)

std::string format(const char* pattern, double value)
{
  char text[64];
  std::snprintf(text, sizeof text, pattern, value);
  return text;
}

std::string label(const std::string& fault)
{
  return fault.empty() ? "baseline" : fault;
}

PlainVerdict judgePlain(const RunFindings& run, const RunFindings& baseline, double onset, double margin)
{
  PlainVerdict verdict;
  verdict.seed = run.seed;
  verdict.judged = baseline.fell < 0;
  if (!verdict.judged) return verdict;
  const auto after = [&](const char* what, double time)
  {
    verdict.details.push_back(std::string(what) + " " + format("%.2f s", time - onset) + " after the onset");
    return true;
  };
  if (run.fell >= 0) verdict.fell = after("fell", run.fell);
  if (run.protectiveFall >= 0) verdict.protectiveFall = after("protective fall", run.protectiveFall);
  if (run.sitDown >= 0)
    verdict.sitDown =
        after((std::string("sit-down (") + std::string(streams::enumName(run.sitDownReason)) + ")").c_str(),
              run.sitDown);
  if (run.lifted >= 0) verdict.lifted = after("lifted", run.lifted);
  for (std::size_t j = 0; j < numOfJoints; ++j)
  {
    if (!(run.stiffnessTaken[j] - baseline.stiffnessTaken[j] > margin)) continue;
    verdict.loweredLimit = true;
    verdict.details.push_back("lowered limit " + std::string(jointNames[j]) + ": smart stiffness took " +
                              format("%.2f", run.stiffnessTaken[j]) + " instead of " +
                              format("%.2f", baseline.stiffnessTaken[j]) + " (mean stiffness " +
                              format("%.2f", run.stiffness[j]) + " instead of " +
                              format("%.2f", baseline.stiffness[j]) + ")");
  }
  return verdict;
}

EventVerdict judgePush(const RunFindings& run, const RunFindings& baseline, bool isBaseline)
{
  EventVerdict verdict{run.seed, EventOutcome::missed, -1};
  if (!isBaseline && !(baseline.impact >= 0 && baseline.detection >= 0))
    verdict.outcome = EventOutcome::baselineFailed;
  else if (run.fell >= 0 && run.fell < run.event)
    verdict.outcome = EventOutcome::fellBefore;
  else if (run.impact < 0)
    verdict.outcome = EventOutcome::noFall;
  else if (run.detection >= 0)
  {
    verdict.outcome = EventOutcome::worked;
    verdict.lead = run.impact - run.detection;
  }
  return verdict;
}

EventVerdict judgePress(const RunFindings& run, const RunFindings& baseline, bool isBaseline)
{
  EventVerdict verdict{run.seed, EventOutcome::missed, -1};
  const auto satDown = [](const RunFindings& f)
  { return f.sittingDown >= 0 && f.sittingDown <= f.event + pressWindow; };
  if (!isBaseline && !satDown(baseline))
    verdict.outcome = EventOutcome::baselineFailed;
  else if (run.fell >= 0 && run.fell < run.event)
    verdict.outcome = EventOutcome::fellBefore;
  else if (run.sittingAtEvent)
    verdict.outcome = EventOutcome::alreadySitting;
  else if (satDown(run))
  {
    verdict.outcome = EventOutcome::worked;
    verdict.lead = run.sittingDown - run.event;
  }
  return verdict;
}

/// "protective fall 2, sit-down 1" over the judged robots of a cell; "none" when nothing happened.
std::string plainCell(const std::vector<PlainVerdict>& robots)
{
  int fell = 0, fall = 0, sit = 0, limit = 0, lifted = 0, judged = 0;
  for (const PlainVerdict& v : robots)
  {
    judged += v.judged;
    fell += v.fell;
    fall += v.protectiveFall;
    sit += v.sitDown;
    limit += v.loweredLimit;
    lifted += v.lifted;
  }
  std::string text;
  const auto add = [&](const char* what, int count)
  {
    if (count > 0) text += (text.empty() ? "" : ", ") + std::string(what) + " " + std::to_string(count);
  };
  add("protective fall", fall);
  add("sit-down", sit);
  add("lowered limit", limit);
  add("lifted", lifted);
  add("fell", fell);
  if (text.empty()) text = "none";
  if (judged < static_cast<int>(robots.size()))
    text += " (" + std::to_string(robots.size() - static_cast<std::size_t>(judged)) +
            " not judged: fell without the fault)";
  return text;
}

std::string outcomeWords(EventOutcome outcome)
{
  switch (outcome)
  {
  case EventOutcome::worked:
    return "worked";
  case EventOutcome::missed:
    return "missed";
  case EventOutcome::noFall:
    return "did not fall";
  case EventOutcome::fellBefore:
    return "lay before";
  case EventOutcome::alreadySitting:
    return "already sitting";
  case EventOutcome::baselineFailed:
    return "not judged: failed without the fault";
  }
  return "";
}

/// "3 of 4, lead 0.38 s (shortest 0.35 s); missed 1".
std::string eventCell(const std::vector<EventVerdict>& robots, bool exempt, const char* exemptWhy)
{
  std::vector<double> leads;
  std::array<int, streams::enumCount<EventOutcome>> counts{};
  for (const EventVerdict& v : robots)
  {
    ++counts[static_cast<std::size_t>(v.outcome)];
    if (v.outcome == EventOutcome::worked) leads.push_back(v.lead);
  }
  std::string text = std::to_string(leads.size()) + " of " + std::to_string(robots.size());
  if (!leads.empty())
    text += format(", %.2f s", percentile(leads, 0.5)) +
            format(" (%.2f s", *std::min_element(leads.begin(), leads.end())) + "–" +
            format("%.2f s)", *std::max_element(leads.begin(), leads.end()));
  for (std::size_t o = 1; o < counts.size(); ++o)
    if (counts[o] > 0)
      text += "; " + outcomeWords(static_cast<EventOutcome>(o)) + " " + std::to_string(counts[o]);
  if (exempt) text += std::string(" (exempt: ") + exemptWhy + ")";
  return text;
}

/// "on 0 of 2 robots (missed 2)": the robots on which the event did not work, and why; empty if it worked on all.
std::string eventFailure(const std::vector<EventVerdict>& robots)
{
  std::array<int, streams::enumCount<EventOutcome>> counts{};
  for (const EventVerdict& v : robots)
    ++counts[static_cast<std::size_t>(v.outcome)];
  const int worked = counts[static_cast<std::size_t>(EventOutcome::worked)];
  const int judged =
      static_cast<int>(robots.size()) - counts[static_cast<std::size_t>(EventOutcome::baselineFailed)];
  if (worked == judged) return "";
  std::string why;
  for (std::size_t o = 1; o < counts.size(); ++o)
    if (counts[o] > 0 && static_cast<EventOutcome>(o) != EventOutcome::baselineFailed)
      why += (why.empty() ? "" : ", ") + outcomeWords(static_cast<EventOutcome>(o)) + " " +
             std::to_string(counts[o]);
  return "on " + std::to_string(worked) + " of " + std::to_string(judged) + " robots (" + why + ")";
}
} // namespace

FaultRow judgeFault(const std::string& fault, bool pushExempt, bool pressExempt,
                    const std::array<std::vector<RunFindings>, 5>& withFault,
                    const std::array<std::vector<RunFindings>, 5>& baseline, double onset,
                    double stiffnessMargin)
{
  FaultRow row;
  row.fault = fault;
  row.pushExempt = pushExempt;
  row.pressExempt = pressExempt;
  for (const auto& runs : withFault)
    for (const RunFindings& run : runs)
      row.droppedFrames += run.droppedFrames;
  for (std::size_t r = 0; r < plainRuns; ++r)
    for (std::size_t k = 0; k < withFault[r].size(); ++k)
      row.plain[r].push_back(judgePlain(withFault[r][k], baseline[r][k], onset, stiffnessMargin));
  const auto push = static_cast<std::size_t>(FaultRun::push),
             press = static_cast<std::size_t>(FaultRun::press);
  for (std::size_t k = 0; k < withFault[push].size(); ++k)
    row.push.push_back(judgePush(withFault[push][k], baseline[push][k], fault.empty()));
  for (std::size_t k = 0; k < withFault[press].size(); ++k)
    row.press.push_back(judgePress(withFault[press][k], baseline[press][k], fault.empty()));
  return row;
}

std::string faultMatrixTable(const FaultMatrixResult& matrix, const std::string& command)
{
  std::ostringstream out;
  out << "Written by `" << command << "`.\n\n"
      << "Every sensor fault of `Config/Sim/faults.toml` against the robot code, " << matrix.robots
      << " robots (seeds) each; the fault in the frames the robot receives from "
      << format("%.0f s", matrix.onset) << " on. Columns stand, stepping, sit (runs of "
      << format("%.0f s", matrix.plainSeconds)
      << ", judged from the onset to the end): robots that took a protective action although the same robot "
         "without the fault stands (a sensor fault changes no physics): a protective fall (FallDownState "
         "falling or "
         "FallProtection.protectedFalls grew), a sit-down (SitDown left passThrough), a lowered limit (smart "
         "stiffness took more than "
      << format("%.2f", matrix.stiffnessMargin)
      << " more stiffness off a joint than without the fault, mean from 1 s after the onset), lifted "
         "(FallDownState lifted), or fell (the upper body touched the floor). Push: the stand pushed forward "
         "(45 N "
         "for 0.1 s) "
      << format("%.0f s", matrix.eventDelay)
      << " after the onset: falls detected (entry into falling) before the impact, median lead "
         "(shortest–longest). Press: the chest button pressed for 0.2 s "
      << format("%.0f s", matrix.eventDelay)
      << " after the onset: robots that began to sit down within 1 s, median delay. Exempt: the fault is of "
         "the "
         "reading the event is made of.\n\n";
  out << "| fault | stand | stepping | sit | push: fall detected, lead | press: sat down, delay |\n"
      << "| --- | --- | --- | --- | --- | --- |\n";
  for (const FaultRow& row : matrix.rows)
  {
    out << "| " << label(row.fault) << " |";
    for (const auto& cell : row.plain)
      out << ' ' << plainCell(cell) << " |";
    out << ' ' << eventCell(row.push, row.pushExempt, "a fault of the fall's own reading") << " | "
        << eventCell(row.press, row.pressExempt, "the chest button's own fault") << " |\n";
  }
  std::string details;
  for (const FaultRow& row : matrix.rows)
    for (std::size_t r = 0; r < plainRuns; ++r)
      for (const PlainVerdict& v : row.plain[r])
        for (const std::string& detail : v.details)
          details += "- " + label(row.fault) + ", " +
                     std::string(streams::enumName(static_cast<FaultRun>(r))) + ", seed " +
                     std::to_string(v.seed) + ": " + detail + "\n";
  out << (details.empty() ? "\nNo protective action on any robot that stands.\n"
                          : "\nEvery protective action and fall (fault, run, seed):\n\n" + details);
  std::string dropped;
  for (const FaultRow& row : matrix.rows)
    if (row.droppedFrames > 0)
      dropped += " " + label(row.fault) + " " + std::to_string(row.droppedFrames) + ";";
  if (!dropped.empty())
    out << "\nFrames the robots' loggers dropped (a state that lasted only those frames is not seen):"
        << dropped << "\n";
  return out.str();
}

std::vector<std::string> faultMatrixFailures(const FaultMatrixResult& matrix)
{
  std::vector<std::string> failures;
  for (const FaultRow& row : matrix.rows)
  {
    for (std::size_t r = 0; r < plainRuns; ++r)
    {
      const auto acted = std::count_if(row.plain[r].begin(), row.plain[r].end(),
                                       [](const PlainVerdict& v) { return v.acted(); });
      if (acted > 0)
        failures.push_back(label(row.fault) + " x " +
                           std::string(streams::enumName(static_cast<FaultRun>(r))) + ", robots of " +
                           std::to_string(row.plain[r].size()) + ": " + plainCell(row.plain[r]));
    }
    if (const std::string failure = eventFailure(row.push); !row.pushExempt && !failure.empty())
      failures.push_back(label(row.fault) + " x push: fall detected before its impact " + failure);
    if (const std::string failure = eventFailure(row.press); !row.pressExempt && !failure.empty())
      failures.push_back(label(row.fault) + " x press: sat down " + failure);
  }
  return failures;
}
} // namespace nao
