# aisim-gui opens a scenario, runs it, draws its window offscreen and writes it as a PNG, as a person would look at
# it without a display: exit 0 with results (also after a --what-if change against the pinned baseline), 2 when the
# scenario or the change has errors (the window then shows the messages).
set(ENV{QT_QPA_PLATFORM} offscreen)
file(REMOVE_RECURSE "${OUT}")
file(MAKE_DIRECTORY "${OUT}")
function(shoot name want)
  execute_process(COMMAND "${GUI}" ${ARGN} --screenshot "${OUT}/${name}.png" --table "${OUT}/${name}.txt" RESULT_VARIABLE rc
                  OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 300)
  if(NOT rc EQUAL want)
    message(FATAL_ERROR "aisim-gui ${ARGN}: exit ${rc}, expected ${want}\n${out}${err}")
  endif()
  file(READ "${OUT}/${name}.png" head LIMIT 8 HEX)
  if(NOT head STREQUAL "89504e470d0a1a0a")
    message(FATAL_ERROR "${OUT}/${name}.png is not a PNG (starts with ${head})")
  endif()
  file(SIZE "${OUT}/${name}.png" size)
  if(size LESS 20000)
    message(FATAL_ERROR "${OUT}/${name}.png is only ${size} bytes: nothing drawn")
  endif()
endfunction()
# What the window drew, read back from the headline table it wrote with the picture (--table), against the same runs made
# with the command line: utilization, cost and data-loss events as results.json has them, and with --what-if the
# baseline column the unchanged run's.
function(drawn_matches table results baseline)
  execute_process(COMMAND python3 -c "
import json, sys
rows = [l.split('\\t') for l in open(sys.argv[1], encoding='utf-8').read().splitlines()]
shown = {r[0]: r[1:] for r in rows}
def expect(name, col, want):
    got = shown.get(name, [None, None])[col]
    if got != want:
        sys.exit(f'{name}: the window shows {got!r}, the run says {want!r}')
for col, path in enumerate(sys.argv[2:]):
    if not path:
        continue
    r = json.load(open(path))
    expect('GPU utilization', col, f\"{100 * r['gpu']['utilization']:.2f} %\")
    expect('total cost over the horizon', col, '$' + format(round(r['cost']['total_usd']), ','))
    expect('cost with lost GPU time', col, '$' + format(round(r['cost']['total_with_lost_gpu_usd']), ','))
    expect('data-loss events', col, str(len(r['failures']['data_loss_events'])))
if len(rows) < 10:
    sys.exit(f'only {len(rows)} headline rows drawn')
" "${table}" "${results}" "${baseline}" RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${table}: ${out}${err}")
  endif()
endfunction()
execute_process(COMMAND "${AISIM}" run "${GOOD}" --out "${OUT}/cli" --progress none --no-report OUTPUT_QUIET
                RESULT_VARIABLE rc)
execute_process(COMMAND "${AISIM}" run "${GOOD}" --out "${OUT}/cli-what-if" --progress none --no-report
                        --set /workloads/0/checkpoint/interval=10min OUTPUT_QUIET RESULT_VARIABLE rc2)
if(NOT rc EQUAL 0 OR NOT rc2 EQUAL 0)
  message(FATAL_ERROR "the command-line runs to compare with failed: ${rc}, ${rc2}")
endif()

shoot(good 0 "${GOOD}")
drawn_matches("${OUT}/good.txt" "${OUT}/cli/results.json" "")
shoot(bad 2 "${BAD}")
shoot(what-if 0 "${GOOD}" --what-if /workloads/0/checkpoint/interval=10min)
drawn_matches("${OUT}/what-if.txt" "${OUT}/cli-what-if/results.json" "${OUT}/cli/results.json")
shoot(bad-what-if 2 "${GOOD}" --what-if /cluster/node_groups/0/count=-1)
