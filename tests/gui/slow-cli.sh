#!/bin/sh
# Stands in for `aisim run` in the GUI tests: one progress line, then a run that would last (sleep), so that a test
# can cancel it or kill it from outside while it is in progress.
echo '{"type":"progress","simulated_s":3600,"fraction":0.25}'
exec sleep 60
