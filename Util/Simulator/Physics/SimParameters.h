#pragma once
// Every tunable number of the simulated NAO, one header per file of Config/Sim: physics.toml (scene, solver,
// soles, events), motors.toml (boards, motors, gears, heat), sensors.toml (what LoLA reads) and robots.toml
// (how robots differ).
#include "Util/MujocoModel/MotorParameters.h"
#include "Util/MujocoModel/PhysicsParameters.h"
#include "Util/Simulator/Physics/RobotDistributions.h"
#include "Util/Simulator/Physics/SensorParameters.h"
