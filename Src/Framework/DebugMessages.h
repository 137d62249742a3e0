#pragma once
// The debug channel's messages. Each travels as one network frame (Tools/Network: header, CRC, length <= 1
// MiB) whose payload is the Boost binary archive of the struct below, decoded with size bounds.
#include "Framework/Representation.h"
#include <boost/serialization/string.hpp>
#include <boost/serialization/vector.hpp>
#include <cstdint>
#include <string>
#include <vector>

namespace nao::debug
{
enum class MessageType : std::uint16_t
{
  hello = 1,         ///< client -> robot: payload is the raw token (not an archive)
  listRequest = 2,   ///< client -> robot: Empty
  listReply = 3,     ///< robot -> client: ListReply
  subscribe = 4,     ///< client -> robot: Subscribe; answered with Reply
  unsubscribe = 5,   ///< client -> robot: Name; answered with Reply
  data = 6,          ///< robot -> client: Data, at the subscribed rate
  getParameters = 7, ///< client -> robot: Name (module); answered with Parameters or Reply
  parameters = 8,    ///< robot -> client: Parameters
  setParameter = 9,  ///< client -> robot: SetParameter; answered with Reply
  setProvider = 10,  ///< client -> robot: SetProvider; answered with Reply
  logStart = 11,     ///< client -> robot: Name (file path); answered with Reply
  logStop = 12,      ///< client -> robot: Empty; answered with Reply
  reply = 13,        ///< robot -> client: Reply
  refused = 14,      ///< robot -> client, then closed: why the token was refused (raw text, not an archive)
  annotate = 15,     ///< client -> robot: Name (text for the running log); answered with Reply
};

struct Empty
{
  template<class Archive>
  void serialize(Archive&, const unsigned)
  {
  }
};

struct Name
{
  std::string name;
  template<class Archive>
  void serialize(Archive& ar, const unsigned)
  {
    ar& name;
  }
};

struct Reply
{
  bool ok = true;
  std::string message; ///< what went wrong, or what was done
  template<class Archive>
  void serialize(Archive& ar, const unsigned)
  {
    ar& ok& message;
  }
};

struct RepresentationEntry
{
  std::string name;
  std::string
      provider; ///< module name, "off", "Body", "Framework", or "" when the scenario does not mention it
  std::vector<FieldDescription> fields;
  template<class Archive>
  void serialize(Archive& ar, const unsigned)
  {
    ar& name& provider& fields;
  }
};

struct ModuleEntry
{
  std::string name;
  bool active = false; ///< in the current execution plan
  std::vector<std::string> requires_, uses, provides;
  std::vector<FieldDescription> parameters;
  template<class Archive>
  void serialize(Archive& ar, const unsigned)
  {
    ar& name& active& requires_& uses& provides& parameters;
  }
};

struct ListReply
{
  std::string scenario;
  std::string plan; ///< execution order as text
  std::vector<RepresentationEntry> representations;
  std::vector<ModuleEntry> modules;
  template<class Archive>
  void serialize(Archive& ar, const unsigned)
  {
    ar& scenario& plan& representations& modules;
  }
};

struct Subscribe
{
  std::string representation;
  float rateHz = 0.f; ///< Hz; 0 or above the frame rate: every frame
  template<class Archive>
  void serialize(Archive& ar, const unsigned)
  {
    ar& representation& rateHz;
  }
};

struct Data
{
  std::string representation;
  std::uint32_t frameNumber = 0;
  double time = 0;           ///< s, FrameInfo::time
  std::uint64_t dropped = 0; ///< records lost so far because this subscription fell behind
  std::vector<char> payload; ///< the representation's binary archive
  template<class Archive>
  void serialize(Archive& ar, const unsigned)
  {
    ar& representation& frameNumber& time& dropped& payload;
  }
};

struct Parameters
{
  std::string module;
  std::string toml; ///< current values in file units
  std::vector<FieldDescription> fields;
  template<class Archive>
  void serialize(Archive& ar, const unsigned)
  {
    ar& module& toml& fields;
  }
};

struct SetParameter
{
  std::string module, key, value; ///< key path ("thresholds.LKneePitch"), value in TOML syntax
  template<class Archive>
  void serialize(Archive& ar, const unsigned)
  {
    ar& module& key& value;
  }
};

struct SetProvider
{
  std::string representation, provider; ///< provider: a module name or "off"
  template<class Archive>
  void serialize(Archive& ar, const unsigned)
  {
    ar& representation& provider;
  }
};
} // namespace nao::debug
