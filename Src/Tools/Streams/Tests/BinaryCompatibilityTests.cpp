// The same serialize() works with Boost's binary archives (logs, network): field() is a plain nvp there
// and stores the SI value.

#include <numbers>
#include <sstream>

#include <boost/archive/binary_iarchive.hpp>
#include <boost/archive/binary_oarchive.hpp>
#include <gtest/gtest.h>

#include "TestParameters.h"
#include "Tools/Streams/TomlFiles.h"

using namespace nao::streams;
using namespace streams_test;

namespace
{
template<class T>
T binaryRoundTrip(const T& object)
{
  std::stringstream stream;
  {
    boost::archive::binary_oarchive output(stream);
    output << object;
  }
  T loaded;
  boost::archive::binary_iarchive input(stream);
  input >> loaded;
  return loaded;
}

struct OnlyAnAngle
{
  double angle = 0.0; ///< rad (degrees in files)
  template<class Archive>
  void serialize(Archive& archive, const unsigned /*version*/)
  {
    archive& field("angle", angle).unit(Unit::degrees).range(-180.0, 180.0);
  }
};
} // namespace

static_assert(boost::serialization::is_wrapper<Field<double>>::type::value);
static_assert(boost::serialization::is_wrapper<const Field<std::vector<float>>>::type::value);

TEST(BinaryCompatibility, ParametersLoadedFromTomlRoundTripThroughBinaryArchives)
{
  TestParameters parameters;
  loadFromTable(parseToml(validToml, "virtual/path.toml"), parameters);
  EXPECT_EQ(binaryRoundTrip(parameters), parameters);
}

TEST(BinaryCompatibility, BinaryArchivesStoreTheSiValue)
{
  const OnlyAnAngle original{std::numbers::pi / 2}; // 90 degrees, outside no range in either unit
  std::stringstream withField;
  {
    boost::archive::binary_oarchive output(withField, boost::archive::no_header);
    output << original;
  }
  std::stringstream plain;
  {
    boost::archive::binary_oarchive output(plain, boost::archive::no_header);
    output << original.angle;
  }
  // The field adds nothing but the raw double (after the class header binary archives write for a struct).
  const std::string withFieldBytes = withField.str();
  const std::string plainBytes = plain.str();
  ASSERT_GE(withFieldBytes.size(), plainBytes.size());
  EXPECT_EQ(withFieldBytes.substr(withFieldBytes.size() - plainBytes.size()), plainBytes);
  EXPECT_EQ(binaryRoundTrip(original).angle, original.angle);
}
