#pragma once
// Battery state as LoLA reports it (order [charge, status, current, temperature], NaoFacts.md §6).
#include "Tools/Streams/Field.h"
#include <boost/serialization/nvp.hpp>

namespace nao
{
struct BatteryData
{
  float charge = 1.f;       ///< 0..1 of full charge
  float current = 0.f;      ///< A, negative while discharging
  float temperature = 25.f; ///< °C
  bool charging = false;    ///< bit 0x80 of LoLA's status word

  template<class Archive>
  void serialize(Archive& ar, const unsigned)
  {
    ar& BOOST_SERIALIZATION_NVP(charge) & streams::field("current", current).unit(streams::Unit::amperes) &
        streams::field("temperature", temperature).unit(streams::Unit::degreesCelsius) &
        BOOST_SERIALIZATION_NVP(charging);
  }
};
} // namespace nao
