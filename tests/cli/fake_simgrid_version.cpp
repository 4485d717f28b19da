// Loaded with LD_PRELOAD before libsimgrid, this answers aisim's question "which SimGrid is this?" with 3.33.0, as
// a library aisim was not checked on would (tests/cli/check_simgrid_mismatch.sh).
extern "C" void sg_version_get(int* major, int* minor, int* patch) {
  *major = 3;
  *minor = 33;
  *patch = 0;
}
