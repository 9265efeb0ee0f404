// ringsweep SIMT backend: settings a test may change at run time (not part of the CUDA shadow).
// Everything else is set through the environment: RINGSWEEP_SIMT_WORKERS, RINGSWEEP_SIMT_SEED,
// RINGSWEEP_SIMT_WATCHDOG_S, RINGSWEEP_SIMT_STACK_KB, RINGSWEEP_SIMT_SMS, RINGSWEEP_SIMT_DEVICES,
// RINGSWEEP_SIMT_DELAY.
#pragma once

namespace simt {
// A block whose threads only spin (yield) for longer than this is reported and the process aborts.
void set_watchdog_seconds(double seconds);
}  // namespace simt
