"""The areas of Make/benchmarks: which Google Benchmark executable each reads, and per area a title, a paragraph of
what is measured, the columns and the rows of its table. Data only; Make/benchmarks runs and renders it.

A row is a list of cells: text, None (no figure in this table), or a figure:
  time(binary, name)              the benchmark's CPU-time median
  wall(binary, name)              its wall-time median (benchmarks timed in real time: a server thread, a simulation)
  counter(binary, name, key, fmt) the median of one of its user counters, written with the format fmt
  ratio(a, b)                     a's median over b's
  joined(cells...)                the cells' texts with " / " between them
"""

# key: (path in the build folder, why it may be missing or None when every Release build has it)
BINARIES = {
    "framework": ("Src/Framework/FrameworkBenchmark", None),
    "collision": ("Src/Tools/Collision/Benchmarks/CollisionBenchmark", None),
    "fcl": ("Src/Tools/Collision/Benchmarks/CollisionFclBenchmark", "FCL not installed"),
    "eigen": ("Src/Tools/Kinematics/Benchmarks/KinematicsBenchmark", None),
    "jit": ("Src/Tools/Kinematics/Jit/Benchmarks/KinematicsJitBenchmark", "built without the JIT"),
    "kdl": ("Src/Tools/Kinematics/Benchmarks/KinematicsKdlBenchmark", None),
    "qp": ("Src/Tools/Optimization/Benchmarks/OptimizationBenchmark", None),
    "taskstack": ("Src/Tools/TaskStack/Benchmarks/TaskStackBenchmark", None),
    "stiffness": ("Src/Tools/Stiffness/Benchmarks/StiffnessBenchmark", None),
    "selfcollision": ("Src/Modules/MotionControl/SelfCollisionProvider/SelfCollisionProviderBenchmark", None),
    "smartstiffness": ("Src/Modules/MotionControl/SmartStiffnessProvider/SmartStiffnessProviderBenchmark", None),
    "energysaving": ("Src/Modules/MotionControl/EnergySavingProvider/EnergySavingProviderBenchmark", None),
    "thermal": ("Src/Modules/Modeling/JointThermalStateProvider/JointThermalStateProviderBenchmark", None),
    "limbstiffness": ("Src/Modules/Modeling/LimbStiffnessProvider/LimbStiffnessProviderBenchmark", None),
    "taskspace": ("Src/Modules/MotionControl/TaskSpaceMotionProvider/TaskSpaceMotionProviderBenchmark", None),
    "binaryio": ("Src/Tools/BinaryIO/BinaryIOBenchmark", None),
    "network": ("Src/Tools/Network/NetworkBenchmark", None),
    "subscription": ("Src/Apps/Nao/SubscriptionBenchmark", None),
    "streams": ("Src/Tools/Streams/Benchmarks/StreamsBenchmark", None),
    "debuggui": ("Util/DebugGui/DebugGuiBenchmark", None),
    "simulation": ("Util/Simulator/Run/SimulationBenchmarks", None),
    "simphysics": ("Util/Simulator/Physics/Benchmarks/SimPhysicsBenchmarks", None),
}


def time(binary, name):
    return ("time", binary, name)


def wall(binary, name):
    return ("wall", binary, name)


def counter(binary, name, key, fmt="{:.1f}"):
    return ("counter", binary, name, key, fmt)


def ratio(numerator, denominator):
    return ("ratio", numerator, denominator)


def joined(*cells):
    return ("joined",) + cells


def kinematicsRow(label, eigen, jit, kdl):
    jitCells = [time("jit", jit + "/fastest"), time("jit", jit + "/sse")] if jit else [None, None]
    kdlCells = [time("kdl", kdl + "/allLinks"), time("kdl", kdl + "/loadedLinks")] if kdl else [None, None]
    return [label, time("eigen", eigen)] + jitCells + kdlCells


def moduleRow(module, case, binary, name):
    return [f"`{module}`", case, time(binary, name)]


AREAS = {
    "framework": (
        "The framework per motion frame (`Src/Framework`)",
        "`FrameworkBenchmark`: one `MotionLoop::runFrame` of a graph of 20 trivial modules in a chain (each adds one "
        "to its input; every module timed as in production) and the five joint-request stages set `off`, which pass "
        "the default request through: what remains is the framework's own cost (the modules, the stages' copies, the "
        "module times). And one frame of the stand-in scenario's log set (7 representations: FrameInfo, "
        "JointSensorData, JointRequest, FsrSensorData, InertialSensorData, BatteryData, ModuleTimes) serialized and "
        "written to a file as the Logger thread does it.",
        ["case", "median"],
        [["a motion frame: 20 trivial modules + 5 pass-through stages (`BM_FrameWith20TrivialModules`)",
          time("framework", "BM_FrameWith20TrivialModules")],
         ["logging one frame of 7 representations (`BM_LogWritePerFrame`)",
          time("framework", "BM_LogWritePerFrame")]]),
    "collision": (
        "Self-collision distances (`Src/Tools/Collision`) against FCL",
        "The 40-pair set of `Benchmarks/NaoShapeSet.h` (15 spheres and capsules on the NAO's links; 64 joint "
        "configurations without penetration, cycled): one frame moves the 15 shapes into the base frame and computes "
        "40 signed distances with witness points and normal. FCL runs the same pairs and configurations "
        "(`fcl::distance` with nearest points on its exact path) after checking that its distances agree with ours "
        "to 1e-9 m.",
        ["case", "NaoCollision", "FCL", "FCL / NaoCollision"],
        [["15 shapes into the base frame + 40 pairs (`Distances40Pairs`)", time("collision", "Distances40Pairs"),
          time("fcl", "FclDistances40Pairs"),
          ratio(time("fcl", "FclDistances40Pairs"), time("collision", "Distances40Pairs"))],
         ["the 40 pairs, shapes placed, one configuration (`PairDistancesOnly40Pairs`)",
          time("collision", "PairDistancesOnly40Pairs"), None, None],
         ["one capsule–capsule query, preparing both capsules included (`CapsuleCapsuleOnePair`)",
          time("collision", "CapsuleCapsuleOnePair"), None, None]]),
    "kinematics": (
        "Kinematics and static dynamics (`Src/Tools/Kinematics`, `Jit/`) against Orocos KDL",
        "The NAO of `Config/Robots/Default/nao-v6.urdf` (25 coordinates, 26 revolute joints, 63 links), 64 random "
        "configurations cycled, slightly tilted gravity. Eigen: the library's C++ path (`KinematicsBenchmark`); JIT: "
        "the generated code (`KinematicsJitBenchmark`) with AVX2+FMA and with SSE4.1 forced (the NAO's Atom); KDL "
        "(`KinematicsKdlBenchmark`): `TreeIdSolver_RNE` with the sole wrenches as external forces, "
        "`TreeFkSolverPos_recursive` per segment, `TreeJntToJacSolver` + `changeRefPoint`, on its tree of all 63 "
        "links and of the 32 that are not massless sensor leaves; it checks its torques and Jacobians against ours "
        "first. Sine and cosine: the Eigen column is glibc's `sincos`.",
        ["case", "Eigen", "JIT AVX2+FMA", "JIT SSE4.1", "KDL, 63 links", "KDL, 32 links"],
        [kinematicsRow("G(q), torso fixed", "EigenGravityTorques", "JitGravityTorques", "KdlGravityTorques"),
         kinematicsRow("static torques, 2 sole wrenches", "EigenStaticTorquesTwoSoleWrenches",
                       "JitStaticTorquesTwoSoleWrenches", "KdlStaticTorquesTwoSoleWrenches"),
         kinematicsRow("standing torques from 2 sole loads (balancing included)", "EigenStandingTorquesFromSoleLoads",
                       "JitStandingTorquesFromSoleLoads", None),
         kinematicsRow("FK of all links", "EigenForwardKinematicsAllLinks", "JitForwardKinematicsAllLinks",
                       "KdlForwardKinematics"),
         kinematicsRow("FK of the bodies only", "EigenBodyPoses", "JitBodyPoses", None),
         kinematicsRow("FK (bodies) + 10 point Jacobians", "EigenForwardKinematicsPlusTenPointJacobians",
                       "JitForwardKinematicsPlusTenPointJacobians", "KdlForwardKinematicsPlusTenPointJacobians"),
         kinematicsRow("all dJ/dq of one sole point (6 × 625)", "EigenAllJacobianDerivativesOfTheSole", None, None),
         ["sine and cosine of 25 joint angles", time("jit", "GlibcSinCosOfTheJointAngles"),
          time("jit", "VectorisedSinCosOfTheJointAngles/fastest"), time("jit", "VectorisedSinCosOfTheJointAngles/sse"),
          None, None],
         ["compiling the model (once, at load)", None, time("jit", "CompileTheNaoModel/fastest"),
          time("jit", "CompileTheNaoModel/sse"), None, None]]),
    "qp": (
        "The QP solver (`Src/Tools/Optimization`)",
        "25 variables, 30 inequality rows, sequences of 8 frames of a slowly moving problem; cold: a fresh solve each "
        "frame, warm: started from the last frame's active set. Active rows and iterations (search directions) are "
        "averages per solve. No QP peer is packaged in Debian.",
        ["problem", "cold", "warm", "active rows", "iterations cold / warm"],
        [["SelfCollisionProvider's shape: diagonal H, 23 velocity-damper rows on joint chains, 7 joint-step bounds",
          time("qp", "QpSelfCollision25x30Cold"), time("qp", "QpSelfCollision25x30Warm"),
          counter("qp", "QpSelfCollision25x30Cold", "active"),
          joined(counter("qp", "QpSelfCollision25x30Cold", "iterations"),
                 counter("qp", "QpSelfCollision25x30Warm", "iterations"))],
         ["dense random: H with condition up to 1e4, 30 dense rows", time("qp", "QpDense25x30Cold"),
          time("qp", "QpDense25x30Warm"), counter("qp", "QpDense25x30Cold", "active"),
          joined(counter("qp", "QpDense25x30Cold", "iterations"), counter("qp", "QpDense25x30Warm", "iterations"))]]),
    "taskstack": (
        "The task stack (`Src/Tools/TaskStack`) against the sequential-QP cascade",
        "`HqpSolver` in exact mode (a QP per level, then the finishing least squares) beside the peer, the "
        "sequential-QP cascade (one regularised QP per level, damped mode), on the NAO-shaped stack with its first "
        "1 to 4 levels and on random 25-variable hierarchies of 5 levels; refinement only: exact by proximal "
        "refinement alone, without the finish.",
        ["stack", "exact", "sequential QP", "exact, refinement only"],
        [[f"NAO, {n} level{'s' if n > 1 else ''}", time("taskstack", f"NaoStackExact/levels:{n}"),
          time("taskstack", f"NaoStackSequentialQp/levels:{n}"),
          time("taskstack", "NaoStackExactRefinementOnly") if n == 4 else None] for n in range(1, 5)] +
        [["random, 25 variables, 5 levels", time("taskstack", "Random25x5Exact"),
          time("taskstack", "Random25x5SequentialQp"), time("taskstack", "Random25x5ExactRefinementOnly")]]),
    "stiffness": (
        "Configuration stiffness (`Src/Tools/Stiffness`)",
        "The metric p in a direction with its gradient (or Hessian) on a 7-joint chain (axes z y z y z y z) and on "
        "the NAO's left arm (torso to l_gripper; its `updateChain` includes the FK of all 26 bodies), and the NAO "
        "arm's stiffness ellipsoid on known geometry. No peer: none is packaged.",
        ["case", "median"],
        [["7-joint chain: `updateChain` + p + gradient", time("stiffness", "SevenJointsUpdateMetricGradient")],
         ["7-joint chain: p + gradient on known geometry", time("stiffness", "SevenJointsMetricGradientOnly")],
         ["7-joint chain: `updateChain` + p + Hessian", time("stiffness", "SevenJointsUpdateMetricHessian")],
         ["NAO left arm: `updateChain` + p + gradient", time("stiffness", "NaoArmUpdateMetricGradient")],
         ["NAO left arm: the 6 × 6 ellipsoid (iterative)", time("stiffness", "NaoArmFullEllipsoid")],
         ["NAO left arm: the translational 3 × 3 ellipsoid (closed form)",
          time("stiffness", "NaoArmTranslationalEllipsoid")]]),
    "modules": (
        "Modules per motion frame",
        "Each module's update of one frame as the motion loop calls it, with the parameters of `Config/` (the "
        "benchmark's header says what its inputs are).",
        ["module", "frame", "median"],
        [moduleRow("SelfCollisionProvider", "posture held: FK, 71 pair distances, pass-through", "selfcollision",
                   "StageFree"),
         moduleRow("SelfCollisionProvider", "moving, free: the same at the request too", "selfcollision",
                   "StageMovingFree"),
         moduleRow("SelfCollisionProvider", "constrained: pair rows, their Jacobians and the QP", "selfcollision",
                   "StageConstrained"),
         moduleRow("SmartStiffnessProvider", "its update alone, limiting", "smartstiffness",
                   "BM_SmartStiffnessUpdatesOnly"),
         moduleRow("SmartStiffnessProvider", "with the harness' snapshot, limiting", "smartstiffness",
                   "BM_SmartStiffnessFrame/active"),
         moduleRow("SmartStiffnessProvider", "with the harness' snapshot, disabled", "smartstiffness",
                   "BM_SmartStiffnessFrame/disabled"),
         moduleRow("EnergySavingProvider", "working: every joint searched each round", "energysaving",
                   "BM_EnergySavingProviderWorking"),
         moduleRow("EnergySavingProvider", "not requested", "energysaving", "BM_EnergySavingProviderNotRequested"),
         moduleRow("FilteredCurrentProvider", "25 joints", "energysaving", "BM_FilteredCurrentProvider"),
         moduleRow("JointThermalStateProvider", "25 joints", "thermal", "BM_JointThermalStateFrame"),
         moduleRow("LimbStiffnessProvider", "4 limbs, JIT (fastest)", "limbstiffness",
                   "BM_LimbStiffnessFrame/automatic"),
         moduleRow("LimbStiffnessProvider", "4 limbs, JIT SSE4.1", "limbstiffness", "BM_LimbStiffnessFrame/jitSse41"),
         moduleRow("LimbStiffnessProvider", "4 limbs, Eigen", "limbstiffness", "BM_LimbStiffnessFrame/eigen"),
         moduleRow("TaskSpaceMotionProvider", "standing, no target", "taskspace", "Stand"),
         moduleRow("TaskSpaceMotionProvider", "a hand and the head moving", "taskspace", "HandAndHead"),
         moduleRow("TaskSpaceMotionProvider", "on one foot", "taskspace", "OnOneFoot")]),
    "logs": (
        "Binary logs (`Src/Tools/BinaryIO`)",
        "`BinaryIOBenchmark`: a frame of four representation-like records (each five 25-float per-joint arrays and "
        "a few scalars, Boost binary serialization) built into a frame chunk; the CRC-32 of that chunk; the chunk "
        "serialized and written to a file, flushed after every chunk and buffered; and the way back, a frame read "
        "and its four records deserialized. The file is restarted every 64 MiB outside the timing.",
        ["case", "median", "frame [bytes]"],
        [["serialize a frame (`BM_SerializeFrame`)", time("binaryio", "BM_SerializeFrame"),
          counter("binaryio", "BM_SerializeFrame", "frame_bytes", "{:,.0f}")],
         ["CRC-32 of the frame (`BM_Crc32OfFrame`)", time("binaryio", "BM_Crc32OfFrame"), None],
         ["serialize and write, flushed every chunk (`BM_SerializeAndWriteFrame_FlushEveryChunk`)",
          time("binaryio", "BM_SerializeAndWriteFrame_FlushEveryChunk"), None],
         ["serialize and write, buffered (`BM_SerializeAndWriteFrame_Buffered`)",
          time("binaryio", "BM_SerializeAndWriteFrame_Buffered"), None],
         ["read and deserialize a frame (`BM_ReadAndDeserializeFrame`)", time("binaryio", "BM_ReadAndDeserializeFrame"),
          None]]),
    "network": (
        "The debug channel's framing and transport (`Src/Tools/Network`)",
        "`NetworkBenchmark`: one frame of 64 B, 1 KiB and 64 KiB payload encoded (header and CRC) and decoded again "
        "(CPU time); and the round trip of an echo over loopback TCP, `FrameClient` to a `FrameServer` polled on a "
        "thread of its own and back, timed in wall time (the server's thread and the kernel are part of it).",
        ["case", "median"],
        [[f"encode + decode, {label} payload (`encodeDecode/{size}`)", time("network", f"encodeDecode/{size}")]
         for label, size in (("64 B", 64), ("1 KiB", 1024), ("64 KiB", 65536))] +
        [[f"echo round trip over loopback, {label} payload, wall time (`echoRoundTrip/{size}`)",
          wall("network", f"echoRoundTrip/{size}/real_time")] for label, size in (("64 B", 64), ("64 KiB", 65536))]),
    "subscriptions": (
        "Debug-channel subscriptions on the robot (`Src/Apps/Nao`)",
        "`SubscriptionBenchmark`: a `Robot` of every module on the stand-in body, as the robot binary runs it; on one "
        "thread the motion frame (`MotionLoop::runFrame`: modules, then the tap copies) and the debug thread's round "
        "(`DebugServer::poll`: serialize and send every sample), with `DebugClient`s on threads of their own reading "
        "every sample. Blocks of 1000 frames alternate without and with the subscriptions; the thread's CPU time of "
        "a frame without them, what the subscriptions add per frame, and that as a share of one core at LoLA's 83 Hz "
        "(12 ms a frame). A client that misses a sample, or a robot that drops one, fails the run.",
        ["subscriptions", "frame without [ns]", "added per frame [ns]", "one core at 83 Hz [%]"],
        [[label, counter("subscription", name, "frameWithout_ns", "{:,.0f}"),
          counter("subscription", name, "subscriptions_ns_per_frame", "{:,.0f}"),
          counter("subscription", name, "core_percent_at_83Hz", "{:.3f}")]
         for label, name in (("JointSensorData (`BM_OneSubscriptionJointSensorData`)",
                              "BM_OneSubscriptionJointSensorData"),
                             ("10 representations: the stand-in log set, RobotModel, JointTorques, "
                              "MotionJointRequest (`BM_TenSubscriptions`)", "BM_TenSubscriptions"))]),
    "parameters": (
        "Parameter files (`Src/Tools/Streams`)",
        "`StreamsBenchmark`: the Streams tests' parameter struct (`Tests/TestParameters.h`: nested tables, fixed and "
        "growing arrays, an enum, a per-joint named array, an array of tables, fields stored in degrees, mA, ms, mm "
        "and percent) loaded from its TOML text, loaded from an already parsed table, saved back to TOML text, one "
        "live edit applied (`walk.maxSpeed`), and flattened into name/value pairs for CSV. Start-up and GUI edits "
        "only; never in the motion thread.",
        ["case", "median"],
        [["parse the TOML text and load (`parseAndLoad`)", time("streams", "parseAndLoad")],
         ["load from the parsed table (`loadFromParsedTable`)", time("streams", "loadFromParsedTable")],
         ["save to TOML text (`saveToText`)", time("streams", "saveToText")],
         ["apply one edit (`applyOneEdit`)", time("streams", "applyOneEdit")],
         ["flatten for CSV (`flattenForCsv`)", time("streams", "flattenForCsv")]]),
    "gui": (
        "The debug GUI's live plot (`Util/DebugGui`)",
        "`DebugGuiBenchmark`: every 12 ms a JointSensorData sample as the robot sends it (binary archive) is decoded "
        "and added to the `SeriesStore`, and at 60 Hz the time plot of 50 of its leaves (every joint's angle and "
        "current) takes the new points and is replotted and painted (Qt's offscreen platform), its 10 s window "
        "already full. The whole process's CPU time per second of data, and that as a share of one core. A plot that "
        "misses a sample or a tick fails the run.",
        ["case", "signals", "frames per second of data", "CPU per second of data [ms]", "one core [%]"],
        [["50 leaves at 83 Hz, plotted at 60 Hz (`BM_FiftySignalsAt83HzPlottedAt60Hz`)",
          counter("debuggui", "BM_FiftySignalsAt83HzPlottedAt60Hz/process_time", "signals", "{:.0f}"),
          counter("debuggui", "BM_FiftySignalsAt83HzPlottedAt60Hz/process_time", "frames_per_second_of_data",
                  "{:.0f}"),
          counter("debuggui", "BM_FiftySignalsAt83HzPlottedAt60Hz/process_time", "cpu_ms_per_second_of_data",
                  "{:,.0f}"),
          counter("debuggui", "BM_FiftySignalsAt83HzPlottedAt60Hz/process_time", "core_percent", "{:.0f}")]]),
    "simulator": (
        "The simulator (`Util/Simulator`)",
        "`SimulationBenchmarks`: the headless `stand` scenario for 10 simulated minutes in lock-step (physics, "
        "motors, LoLA round trips, the robot's modules in the process, the robot logging every frame, as `Make/run` "
        "does); its wall time is the whole run (start-up, the run's files and PNG plots included), its real-time "
        "factor the frame loop's alone (simulated seconds over the loop's wall seconds, as the run prints it). "
        "`SimPhysicsBenchmarks`: the simulated NAO alone (motor boards, heat, battery, sensors every LoLA "
        "frame) in a LoLA-style loop (command, one frame, sensors): the stand for 10 simulated minutes, the robot "
        "resting and sleeping (`physics.toml` `sleepVelocity`); the same for 60 s with sleeping disabled (every 1 ms "
        "step computed by MuJoCo); the head sweeping ±0.5 rad at 1 Hz for 6 s, so that the robot never sleeps: wall "
        "time per run, simulated seconds per wall second, 1 kHz physics steps per wall second (computed or slept) and "
        "those MuJoCo computed.",
        ["case", "wall time", "× real time", "physics steps/s", "computed steps/s"],
        [["stand, 10 min, robot code in the process, logging (`BM_HeadlessStand`)",
          wall("simulation", "BM_HeadlessStand/600/iterations:1"),
          counter("simulation", "BM_HeadlessStand/600/iterations:1", "realTimeFactor", "{:,.0f}"), None, None]] +
        [[label, wall("simphysics", f"{name}/real_time"),
          counter("simphysics", f"{name}/real_time", "realtime", "{:,.0f}"),
          counter("simphysics", f"{name}/real_time", "steps/s", "{:,.0f}"),
          counter("simphysics", f"{name}/real_time", "computed/s", "{:,.0f}")]
         for label, name in (("plant alone: stand, 10 min, sleeping (`StandTenMinutes`)", "StandTenMinutes"),
                             ("plant alone: stand, 60 s, awake (`StandAwake`)", "StandAwake"),
                             ("plant alone: head sweeping, 6 s (`MovingHead`)", "MovingHead"))]),
}
