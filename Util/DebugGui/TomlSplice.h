#pragma once
// Saving a parameter edit into a TOML file by rewriting only the edited value's characters: comments, order,
// blank lines and every other value stay byte for byte as they were (a re-serialised file would lose them).
#include <string>
#include <utility>
#include <vector>

namespace nao::gui
{
/// `text` with the value at keyPath ("transitionTime", "stiffnesses.LKneePitch", "poses[2].time") replaced by
/// valueToml (TOML value syntax). Throws std::runtime_error naming sourceName, the key and what is wrong when the
/// text does not parse, the key is missing or the value is not TOML.
std::string replaceTomlValue(const std::string& text, const std::string& keyPath,
                             const std::string& valueToml, const std::string& sourceName);

/// As replaceTomlValue when the key is in `text`; otherwise adds it (an overlay names only the keys that differ):
/// under its table's header when the file has one, else as a dotted key before the first header.
std::string setTomlValue(const std::string& text, const std::string& keyPath, const std::string& valueToml,
                         const std::string& sourceName);

/// Every leaf of a TOML document as (key path, value text): tables and arrays of tables are descended, arrays of
/// values are one leaf; numbers in their shortest exact form. For the parameter editor.
std::vector<std::pair<std::string, std::string>> flattenToml(const std::string& text,
                                                             const std::string& sourceName);
} // namespace nao::gui
