#compdef kpreempt kubectl-kpreempt
# SPDX-License-Identifier: Apache-2.0
# zsh completion for kpreempt. Installed as _kpreempt in a folder of $fpath; or load it by
# hand (after compinit) with
#   source <(kpreempt completion zsh)
# Policy names come from the binary, and Pod and Workload names for --pod, --victim and
# --workload from the dumps given with -f on the same line (through `kpreempt __complete`).
# compadd takes them as they are and quotes them on the line: nothing in them is expanded.

# "ns/name" of the pods (last argument pods or victims) or Workloads (workloads) of the -f
# dumps; _arguments puts its compadd options before it.
_kpreempt_names() {
  local kind=${@[-1]}
  local -a copts=("${@[1,-2]}") args names
  local i w
  for (( i = 2; i <= $#words; i++ )); do
    (( i == CURRENT )) && continue
    w=$words[i]
    case $w in
      (-f|--filename)
        (( i + 1 != CURRENT && i + 1 <= $#words )) && args+=(-f "${words[i+1]/#\~/$HOME}")
        (( i++ )) ;;
      (--filename=*) args+=(-f "${${w#--filename=}/#\~/$HOME}") ;;
      (-f?*) args+=(-f "${${w#-f}/#\~/$HOME}") ;;
      (-R|--recursive) args+=(-R) ;;
    esac
  done
  if (( ! $#args )); then
    _message 'NAMESPACE/NAME (give -f first to complete names)'
    return 1
  fi
  names=(${(f)"$(_call_program names ${(q)_kpreempt_bin} __complete $kind ${(q)args} 2>/dev/null)"})
  # -V keeps the order: the likely names come first.
  compadd "${copts[@]}" -V kpreempt-names -a names
}

# The POLICY=LINE pairs --upstream accepts, from the binary.
_kpreempt_upstream() {
  local -a lines
  lines=(${(f)"$(_call_program upstream ${(q)_kpreempt_bin} __complete upstream 2>/dev/null)"})
  compadd -V kpreempt-upstream -a lines
}

# The policies of the binary; with "all" as argument that one too (explain).
_kpreempt_policies() {
  local -a copts=("${@[1,-2]}") names
  names=(${(f)"$(_call_program policies ${(q)_kpreempt_bin} __complete policies 2>/dev/null)"})
  [[ ${@[-1]} == all ]] && names+=(all)
  compadd "${copts[@]}" -a names
}

_kpreempt_explain() {
  _arguments -s -S \
    '(- *)'{-h,--help}'[print help and exit]' \
    '*'{-f+,--filename=}'[cluster dump: YAML or JSON file, folder, or - for stdin]:dump:_files' \
    '(-R --recursive)'{-R,--recursive}'[read folders given with -f recursively]' \
    '--pod=[the pending pod to explain]:pod:_kpreempt_names pods' \
    '--workload=[a pending Kueue Workload to explain]:workload:_kpreempt_names workloads' \
    '*--pod-file=[a manifest not in the dump: what if it were submitted now]:manifest:_files' \
    '--all-pending[explain every pending pod of the dump]' \
    '--sequential[with --all-pending: in queue order, each applied]' \
    '--victim=[a running pod: who would evict it]:pod:_kpreempt_names victims' \
    '*--policy=[policy to run]:policy:_kpreempt_policies all' \
    '--now=[evaluation time, RFC 3339]:time:' \
    '*--set=[policy argument KEY=VALUE]:KEY=VALUE:' \
    '*--upstream=[upstream release line POLICY=VERSION]:POLICY=VERSION:_kpreempt_upstream' \
    '(-o --output)'{-o+,--output=}'[output format]:format:(text wide json yaml html)' \
    '--color=[colour the output]:when:(auto always never)' \
    '(-v --verbose)'{-v,--verbose}'[note the objects no policy reads]' \
    '--codes[list every reason code with its meaning]' \
    '(--no-cache)--cache[keep the loaded dump in the snapshot cache, whatever its size]' \
    '(--cache)--no-cache[neither read nor write the snapshot cache]'
}

_kpreempt_lint() {
  _arguments -s -S \
    '(- *)'{-h,--help}'[print help and exit]' \
    '*'{-f+,--filename=}'[manifests: YAML or JSON file, folder, or - for stdin]:file:_files' \
    '(-R --recursive)'{-R,--recursive}'[read folders given with -f recursively]' \
    '*--exclude=[skip files and folders matching GLOB]:glob:' \
    '--allow-empty[exit 0 when nothing was linted]' \
    '*--baseline=[objects as they exist now]:file:_files' \
    '*--enable=[also run these rules]:rules:' \
    '*--disable=[do not run these rules]:rules:' \
    '*--only=[run only these rules]:rules:' \
    '--fail-on=[lowest severity that fails the run]:severity:(error warning info never)' \
    '--kube-version=[target Kubernetes version X.Y]:version:' \
    '--autoscaler-cutoff=[cluster-autoscaler expendable pods priority cutoff]:priority:' \
    '*--policy=[only rules relevant to this policy]:policy:_kpreempt_policies one' \
    '(-o --output)'{-o+,--output=}'[output format]:format:(text json sarif github junit)' \
    '1::rule group:((priorityclasses\:"PriorityClasses, their users, toleration and YuniKorn annotations" queues\:"Kueue, YuniKorn queues.yaml and ElasticQuota"))'
}

_kpreempt_check() {
  _arguments -s -S \
    '(- *)'{-h,--help}'[print help and exit]' \
    '(-o --output)'{-o+,--output=}'[output format]:format:(text json junit)' \
    '--allow-outside[let scenarios read paths outside the folder searched]' \
    '*:scenario:_files'
}

_kpreempt_matrix() {
  _arguments -s -S \
    '(- *)'{-h,--help}'[print help and exit]' \
    '*'{-f+,--filename=}'[PriorityClasses or a whole dump]:file:_files' \
    '(-R --recursive)'{-R,--recursive}'[read folders given with -f recursively]' \
    '--system-classes[add system-node-critical and system-cluster-critical]' \
    '(-o --output)'{-o+,--output=}'[output format]:format:(text json markdown)' \
    '(--no-cache)--cache[keep the loaded dump in the snapshot cache, whatever its size]' \
    '(--cache)--no-cache[neither read nor write the snapshot cache]'
}

_kpreempt_diff() {
  _arguments -s -S \
    '(- *)'{-h,--help}'[print help and exit]' \
    '*'{-f+,--filename=}'[the running cluster: YAML or JSON file or folder]:dump:_files' \
    '(-R --recursive)'{-R,--recursive}'[read folders recursively]' \
    '(--base-ref)*--base=[the configuration before the change]:file:_files' \
    '(--base)--base-ref=[read the base from git at this revision]:revision:' \
    '*--head=[the configuration after the change]:file:_files' \
    '*--pod-file=[a what-if manifest explained on both sides]:manifest:_files' \
    '*--policy=[policy to run]:policy:_kpreempt_policies one' \
    '--now=[evaluation time, RFC 3339]:time:' \
    '*--set=[policy argument KEY=VALUE]:KEY=VALUE:' \
    '*--upstream=[upstream release line POLICY=VERSION]:POLICY=VERSION:_kpreempt_upstream' \
    '(-o --output)'{-o+,--output=}'[output format]:format:(text json yaml markdown github sarif html)' \
    '--fail-on=[changes that fail the run]:changes:(any outcome victims new-victims edges lint none)' \
    '*:head configuration:_files'
}

_kpreempt_cascade() {
  _arguments -s -S \
    '(- *)'{-h,--help}'[print help and exit]' \
    '*'{-f+,--filename=}'[the running cluster: YAML or JSON file or folder]:dump:_files' \
    '(-R --recursive)'{-R,--recursive}'[read folders recursively]' \
    '(--no-cache)--cache[keep the loaded dump in the snapshot cache, whatever its size]' \
    '(--cache)--no-cache[neither read nor write the snapshot cache]' \
    '*--pod-file=[pods to add as pending before round 1]:manifest:_files' \
    '--all-pending[decide every pending pod and Workload (always so)]' \
    '--rounds=[stop after this many rounds]:rounds:' \
    '--policy=[policy deciding kube-scheduler pods]:policy:(default toleration capacity all)' \
    '*--scheduler=[pods of scheduler NAME decided by POLICY]:NAME=POLICY:' \
    '--now=[evaluation time, RFC 3339]:time:' \
    '*--set=[policy argument KEY=VALUE or cascade.backoffLimit=N]:KEY=VALUE:' \
    '*--upstream=[upstream release line POLICY=VERSION]:POLICY=VERSION:_kpreempt_upstream' \
    '(-o --output)'{-o+,--output=}'[output format]:format:(text json yaml html)' \
    '--fail-on=[exit 1 on a loop or more than N evictions]:condition:(loop evictions\>)'
}

_kpreempt_advise() {
  _arguments -s -S \
    '(- *)'{-h,--help}'[print help and exit]' \
    '*'{-f+,--filename=}'[cluster dump: YAML or JSON file, folder, or - for stdin]:dump:_files' \
    '(-R --recursive)'{-R,--recursive}'[read folders given with -f recursively]' \
    '(--no-cache)--cache[keep the loaded dump in the snapshot cache, whatever its size]' \
    '(--cache)--no-cache[neither read nor write the snapshot cache]' \
    '(--pod --workload)--victim=[a running pod to save]:pod:_kpreempt_names victims' \
    '(--victim --workload)--pod=[a pending pod to fit or place]:pod:_kpreempt_names pods' \
    '(--victim --pod)--workload=[a pending Kueue Workload to admit]:workload:_kpreempt_names workloads' \
    '*--pod-file=[a manifest not in the dump: a pod or a workload]:manifest:_files' \
    '--goal=[what is to hold]:goal:(save fit place admit)' \
    '*--policy=[policy to run]:policy:_kpreempt_policies all' \
    '--now=[evaluation time, RFC 3339]:time:' \
    '*--set=[policy argument KEY=VALUE]:KEY=VALUE:' \
    '*--upstream=[upstream release line POLICY=VERSION]:POLICY=VERSION:_kpreempt_upstream' \
    '--limit=[suggestions per policy in text output]:count:' \
    '(-o --output)'{-o+,--output=}'[output format]:format:(text json yaml)'
}

_kpreempt_snapshot() {
  _arguments -s -S \
    '(- *)'{-h,--help}'[print help and exit]' \
    '*'{-f+,--filename=}'[cluster dump: YAML or JSON file, folder, or - for stdin]:dump:_files' \
    '(-R --recursive)'{-R,--recursive}'[read folders given with -f recursively]' \
    '(-o --output)'{-o+,--output=}'[snapshot file to write]:snapshot:_files -g "*.kps(-.)"'
}

_kpreempt() {
  local curcontext=$curcontext state line ret=1
  local _kpreempt_bin=${words[1]/#\~/$HOME}
  local -a commands
  commands=(
    'explain:show which pods a pending pod would preempt, and why'
    'lint:check PriorityClasses and queue configurations'
    'check:run scenario files and check their expectations'
    'matrix:tabulate which PriorityClass may preempt which, under each policy'
    'diff:what a configuration change does to preemption'
    'cascade:rounds of preemption with evicted pods recreated: does the cluster settle'
    'advise:the smallest changes that save a victim, let a pod fit or run, or admit a workload'
    'snapshot:save a cluster dump as a snapshot file that loads fast'
    'completion:print the shell completion script for SHELL'
  )
  _arguments -C \
    '(- *)'{-h,--help}'[print help and exit]' \
    '(- *)--version[print the version and exit]' \
    '1:command:->command' \
    '*::argument:->argument' && ret=0
  case $state in
    (command) _describe -t commands 'kpreempt command' commands && ret=0 ;;
    (argument)
      curcontext=${curcontext%:*:*}:kpreempt-$words[1]:
      case $words[1] in
        (explain) _kpreempt_explain && ret=0 ;;
        (lint) _kpreempt_lint && ret=0 ;;
        (check) _kpreempt_check && ret=0 ;;
        (matrix) _kpreempt_matrix && ret=0 ;;
        (cascade) _kpreempt_cascade && ret=0 ;;
        (snapshot) _kpreempt_snapshot && ret=0 ;;
        (completion) _arguments '1:shell:(bash zsh fish)' && ret=0 ;;
      esac ;;
  esac
  return ret
}

# Autoloaded from $fpath the file is the body of _kpreempt; sourced, it registers itself.
if [[ $funcstack[1] == _kpreempt ]]; then
  _kpreempt "$@"
else
  compdef _kpreempt kpreempt kubectl-kpreempt
fi
