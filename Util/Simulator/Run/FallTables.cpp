// `Simulator falls`' Markdown (fallTables, FallEvaluation.h): the orientation errors per phase, the fall detection
// per push direction, the falling frames of the runs that do not fall. Apart from FallEvaluation.cpp (the runs) to
// keep both files short.
#include "Util/Simulator/Run/Ensemble.h"
#include "Util/Simulator/Run/FallEvaluation.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <map>
#include <sstream>

namespace nao
{
namespace
{
std::string degrees(double radians)
{
  if (std::isnan(radians)) return "-";
  char text[32];
  std::snprintf(text, sizeof text, "%.2f", radians * 180 / M_PI);
  return text;
}

std::string number(const char* format, double value)
{
  char text[32];
  std::snprintf(text, sizeof text, format, value);
  return text;
}

/// (a) Per phase: the orientation errors' median and 90 % of the filter, the complementary filter and LoLA.
void writePhaseErrors(std::ostringstream& out, const std::vector<FallRunResult>& results)
{
  const std::pair<FallPhase, const char*> phases[] = {{FallPhase::stand, "stand"},
                                                      {FallPhase::stepping, "stepping"},
                                                      {FallPhase::pushed, "pushes (until the impact)"},
                                                      {FallPhase::lifted, "picked up"}};
  out << "| phase | frames | filter median [°] | filter 90 % [°] | compl. median [°] | compl. 90 % [°] "
         "| LoLA median [°] | LoLA 90 % [°] |\n| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n";
  for (const auto& [phase, label] : phases)
  {
    std::vector<double> filter, complementary, lola;
    for (const FallRunResult& r : results)
      if (r.spec.phase == phase)
      {
        filter.insert(filter.end(), r.filterErrors.begin(), r.filterErrors.end());
        complementary.insert(complementary.end(), r.complementaryErrors.begin(), r.complementaryErrors.end());
        lola.insert(lola.end(), r.lolaErrors.begin(), r.lolaErrors.end());
      }
    if (filter.empty()) continue;
    out << "| " << label << " | " << filter.size() / 2 << " | " << degrees(percentile(filter, 0.5)) << " | "
        << degrees(percentile(filter, 0.9)) << " | " << degrees(percentile(complementary, 0.5)) << " | "
        << degrees(percentile(complementary, 0.9)) << " | " << degrees(percentile(lola, 0.5)) << " | "
        << degrees(percentile(lola, 0.9)) << " |\n";
  }
}

/// The push runs from one direction.
struct DirectionRow
{
  std::vector<double> leads; ///< s from detection to impact, of the falls detected before it
  std::size_t runs = 0, falls = 0, detected = 0, withstood = 0, falseDetections = 0;
  double lowest = 1e9, highest = 0; ///< N·s, the impulses that toppled the robot
};

/// The push runs from 45·k degrees.
DirectionRow directionRow(const std::vector<FallRunResult>& results, int k)
{
  DirectionRow row;
  for (const FallRunResult& r : results)
  {
    if (r.spec.phase != FallPhase::pushed || std::abs(r.spec.direction - 45.0 * k) > 1e-6) continue;
    ++row.runs;
    row.falseDetections += r.falseDetections;
    for (const ScriptEvent& event : r.spec.events)
      row.withstood += r.impact < 0 || event.time + event.duration < r.impact;
    if (r.impact < 0) continue;
    --row.withstood; // the push that toppled it
    ++row.falls;
    row.lowest = std::min(row.lowest, r.impulse);
    row.highest = std::max(row.highest, r.impulse);
    if (r.detection >= 0 && r.detection < r.impact)
    {
      ++row.detected;
      row.leads.push_back(r.impact - r.detection);
    }
  }
  return row;
}

/// (b) Per push direction: runs, falls, the toppling impulses, detections and their lead; then the totals.
void writePushes(std::ostringstream& out, const std::vector<FallRunResult>& results)
{
  out << "\n| from | runs | fell | toppled by [N·s] | withstood | detected | median lead [s] | shortest lead "
         "[s] "
         "| false |\n| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n";
  std::vector<double> leads;
  std::size_t falls = 0, detected = 0, runs = 0;
  for (int k = 0; k < 8; ++k)
  {
    const DirectionRow row = directionRow(results, k);
    if (row.runs == 0) continue;
    runs += row.runs;
    falls += row.falls;
    detected += row.detected;
    leads.insert(leads.end(), row.leads.begin(), row.leads.end());
    out << "| " << 45 * k << "° | " << row.runs << " | " << row.falls << " | "
        << (row.falls == 0 ? "-"
                           : (row.lowest == row.highest
                                  ? number("%.0f", row.lowest)
                                  : number("%.0f", row.lowest) + "-" + number("%.0f", row.highest)))
        << " | " << row.withstood << " | " << row.detected << " | "
        << (row.leads.empty() ? "-" : number("%.3f", percentile(row.leads, 0.5))) << " | "
        << (row.leads.empty() ? "-" : number("%.3f", *std::min_element(row.leads.begin(), row.leads.end())))
        << " | " << row.falseDetections << " |\n";
  }
  out << "\nPush runs: " << runs << ", falls: " << falls << ", detected before the impact: " << detected;
  if (!leads.empty())
    out << "; time before the impact: median " << number("%.3f", percentile(leads, 0.5)) << " s, shortest "
        << number("%.3f", *std::min_element(leads.begin(), leads.end())) << " s";
  out << ".\n";
}

/// (c) Per run that does not fall: frames, falling frames, falls counted.
void writeNonFalling(std::ostringstream& out, const std::vector<FallRunResult>& results)
{
  out << "\n| non-falling run | runs | frames | falling frames | falls counted |\n| --- | ---: | ---: | ---: "
         "| ---: |\n";
  std::map<std::string, std::array<std::size_t, 4>> rows;
  std::vector<std::string> order;
  for (const FallRunResult& r : results)
  {
    if (r.spec.phase == FallPhase::pushed) continue;
    if (!rows.count(r.spec.label)) order.push_back(r.spec.label);
    auto& row = rows[r.spec.label];
    row[0] += 1;
    row[1] += r.frames;
    row[2] += r.fallingFrames;
    row[3] += r.detections;
  }
  for (const std::string& label : order)
    out << "| " << label << " | " << rows[label][0] << " | " << rows[label][1] << " | " << rows[label][2]
        << " | " << rows[label][3] << " |\n";
}
} // namespace

std::string fallTables(const std::vector<FallRunResult>& results)
{
  std::ostringstream out;
  writePhaseErrors(out, results);
  writePushes(out, results);
  writeNonFalling(out, results);
  return out.str();
}
} // namespace nao
