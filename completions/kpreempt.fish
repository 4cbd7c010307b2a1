# fish completion for kpreempt
# SPDX-License-Identifier: Apache-2.0
# Installed in fish/vendor_completions.d; or load it by hand with
#   kpreempt completion fish | source
# Policy names come from the binary, and Pod and Workload names for --pod, --victim and
# --workload from the dumps given with -f on the same line (through `kpreempt __complete`).
# fish takes the output of a command substitution as it is: nothing in it is expanded.

# "ns/name" of the pods ($argv[1] = pods or victims) or Workloads (workloads) of the -f dumps.
function __kpreempt_names
    set -l tokens (commandline -opc)
    set -l args
    set -l i 2
    while test $i -le (count $tokens)
        set -l token $tokens[$i]
        switch $token
            case -f --filename
                set i (math $i + 1)
                if test $i -le (count $tokens)
                    set -a args -f (string replace -r '^~' -- $HOME $tokens[$i])
                end
            case '--filename=*'
                set -a args -f (string replace -- --filename= '' $token | string replace -r '^~' -- $HOME)
            case '-f?*'
                set -a args -f (string replace -r '^-f' -- '' $token | string replace -r '^~' -- $HOME)
            case -R --recursive
                set -a args -R
        end
        set i (math $i + 1)
    end
    test (count $args) -gt 0; or return 0
    set -l bin (string replace -r '^~' -- $HOME $tokens[1])
    $bin __complete $argv[1] $args 2>/dev/null
end

# The policies of the binary on the command line.
function __kpreempt_upstream
    set -l tokens (commandline -opc)
    set -l bin (string replace -r '^~' -- $HOME $tokens[1])
    $bin __complete upstream 2>/dev/null
end

function __kpreempt_policies
    set -l tokens (commandline -opc)
    set -l bin (string replace -r '^~' -- $HOME $tokens[1])
    $bin __complete policies 2>/dev/null
end

set -l commands explain lint check matrix diff cascade advise snapshot completion

complete -c kpreempt -f
complete -c kpreempt -n "not __fish_seen_subcommand_from $commands" -s h -l help -d 'print help and exit'
complete -c kpreempt -n "not __fish_seen_subcommand_from $commands" -l version -d 'print the version and exit'
complete -c kpreempt -n "not __fish_seen_subcommand_from $commands" -a explain -d 'show which pods a pending pod would preempt, and why'
complete -c kpreempt -n "not __fish_seen_subcommand_from $commands" -a lint -d 'check PriorityClasses and queue configurations'
complete -c kpreempt -n "not __fish_seen_subcommand_from $commands" -a check -d 'run scenario files and check their expectations'
complete -c kpreempt -n "not __fish_seen_subcommand_from $commands" -a matrix -d 'tabulate which PriorityClass may preempt which'
complete -c kpreempt -n "not __fish_seen_subcommand_from $commands" -a diff -d 'what a configuration change does to preemption'
complete -c kpreempt -n "not __fish_seen_subcommand_from $commands" -a cascade -d 'rounds of preemption with evicted pods recreated'
complete -c kpreempt -n "not __fish_seen_subcommand_from $commands" -a advise -d 'the smallest changes that reach a goal'
complete -c kpreempt -n "not __fish_seen_subcommand_from $commands" -a snapshot -d 'save a cluster dump as a snapshot file that loads fast'
complete -c kpreempt -n "not __fish_seen_subcommand_from $commands" -a completion -d 'print the shell completion script for SHELL'

# Options every subcommand has.
complete -c kpreempt -n "__fish_seen_subcommand_from $commands" -s h -l help -d 'print help and exit'

# Reading dumps: explain, lint, matrix, diff, cascade, advise, snapshot.
set -l readers '__fish_seen_subcommand_from explain lint matrix diff cascade advise snapshot'
complete -c kpreempt -n $readers -s f -l filename -r -F -d 'YAML or JSON file, folder, or - for stdin'
complete -c kpreempt -n $readers -s R -l recursive -d 'read folders given with -f recursively'

# explain
set -l explain '__fish_seen_subcommand_from explain'
complete -c kpreempt -n $explain -l pod -x -k -a '(__kpreempt_names pods)' -d 'the pending pod to explain'
complete -c kpreempt -n $explain -l workload -x -k -a '(__kpreempt_names workloads)' -d 'a pending Kueue Workload to explain'
complete -c kpreempt -n $explain -l pod-file -r -F -d 'a manifest not in the dump'
complete -c kpreempt -n $explain -l all-pending -d 'explain every pending pod of the dump'
complete -c kpreempt -n $explain -l sequential -d 'with --all-pending: in queue order, each applied'
complete -c kpreempt -n $explain -l victim -x -k -a '(__kpreempt_names victims)' -d 'a running pod: who would evict it'
complete -c kpreempt -n $explain -l policy -x -k -a '(__kpreempt_policies; echo all)' -d 'policy to run'
complete -c kpreempt -n $explain -l now -x -a '(date -u +%Y-%m-%dT%H:%M:%SZ)' -d 'evaluation time, RFC 3339'
complete -c kpreempt -n $explain -l set -x -d 'policy argument KEY=VALUE'
complete -c kpreempt -n $explain -l upstream -x -k -a '(__kpreempt_upstream)' -d 'upstream release line POLICY=VERSION'
complete -c kpreempt -n $explain -s o -l output -x -a 'text wide json yaml html' -d 'output format'
complete -c kpreempt -n $explain -l color -x -a 'auto always never' -d 'colour the output'
complete -c kpreempt -n $explain -s v -l verbose -d 'note the objects no policy reads'
complete -c kpreempt -n $explain -l codes -d 'list every reason code with its meaning'

# The snapshot cache: explain, matrix, cascade, advise.
set -l cached '__fish_seen_subcommand_from explain matrix cascade advise'
complete -c kpreempt -n $cached -l cache -d 'keep the loaded dump in the snapshot cache, whatever its size'
complete -c kpreempt -n $cached -l no-cache -d 'neither read nor write the snapshot cache'

# lint
set -l lint '__fish_seen_subcommand_from lint'
set -l lint_group "$lint; and not __fish_seen_subcommand_from priorityclasses queues"
complete -c kpreempt -n $lint_group -a priorityclasses -d 'PriorityClasses, their users, toleration and YuniKorn annotations'
complete -c kpreempt -n $lint_group -a queues -d 'Kueue, YuniKorn queues.yaml and ElasticQuota'
complete -c kpreempt -n $lint -l exclude -r -d 'skip files and folders matching GLOB'
complete -c kpreempt -n $lint -l allow-empty -d 'exit 0 when nothing was linted'
complete -c kpreempt -n $lint -l baseline -r -F -d 'objects as they exist now'
complete -c kpreempt -n $lint -l enable -x -d 'also run these rules'
complete -c kpreempt -n $lint -l disable -x -d 'do not run these rules'
complete -c kpreempt -n $lint -l only -x -d 'run only these rules'
complete -c kpreempt -n $lint -l fail-on -x -a 'error warning info never' -d 'lowest severity that fails the run'
complete -c kpreempt -n $lint -l kube-version -x -d 'target Kubernetes version X.Y'
complete -c kpreempt -n $lint -l autoscaler-cutoff -x -d 'cluster-autoscaler expendable pods priority cutoff'
complete -c kpreempt -n $lint -l policy -x -k -a '(__kpreempt_policies)' -d 'only rules relevant to this policy'
complete -c kpreempt -n $lint -s o -l output -x -a 'text json sarif github junit' -d 'output format'

# check
set -l check '__fish_seen_subcommand_from check'
complete -c kpreempt -n $check -F -d 'scenario: case.yaml or folder'
complete -c kpreempt -n $check -s o -l output -x -a 'text json junit' -d 'output format'
complete -c kpreempt -n $check -l allow-outside -d 'let scenarios read paths outside the folder searched'

# matrix
set -l matrix '__fish_seen_subcommand_from matrix'
complete -c kpreempt -n $matrix -l system-classes -d 'add system-node-critical and system-cluster-critical'
complete -c kpreempt -n $matrix -s o -l output -x -a 'text json markdown' -d 'output format'

# diff
set -l diff '__fish_seen_subcommand_from diff'
complete -c kpreempt -n $diff -l base -r -F -d 'the configuration before the change'
complete -c kpreempt -n $diff -l base-ref -x -d 'read the base from git at this revision'
complete -c kpreempt -n $diff -l head -r -F -d 'the configuration after the change'
complete -c kpreempt -n $diff -l pod-file -r -F -d 'a what-if manifest explained on both sides'
complete -c kpreempt -n $diff -l policy -x -k -a '(__kpreempt_policies)' -d 'policy to run'
complete -c kpreempt -n $diff -l now -x -a '(date -u +%Y-%m-%dT%H:%M:%SZ)' -d 'evaluation time, RFC 3339'
complete -c kpreempt -n $diff -l set -x -d 'policy argument KEY=VALUE'
complete -c kpreempt -n $diff -l upstream -x -k -a '(__kpreempt_upstream)' -d 'upstream release line POLICY=VERSION'
complete -c kpreempt -n $diff -s o -l output -x -a 'text json yaml markdown github sarif html' -d 'output format'
complete -c kpreempt -n $diff -l fail-on -x -a 'any outcome victims new-victims edges lint none' -d 'changes that fail the run'

# cascade
set -l cascade '__fish_seen_subcommand_from cascade'
complete -c kpreempt -n $cascade -l pod-file -r -F -d 'pods to add as pending before round 1'
complete -c kpreempt -n $cascade -l all-pending -d 'decide every pending pod and Workload (always so)'
complete -c kpreempt -n $cascade -l rounds -x -d 'stop after this many rounds'
complete -c kpreempt -n $cascade -l policy -x -a 'default toleration capacity all' -d 'policy deciding kube-scheduler pods'
complete -c kpreempt -n $cascade -l scheduler -x -d 'pods of scheduler NAME decided by POLICY'
complete -c kpreempt -n $cascade -l now -x -a '(date -u +%Y-%m-%dT%H:%M:%SZ)' -d 'evaluation time, RFC 3339'
complete -c kpreempt -n $cascade -l set -x -d 'policy argument KEY=VALUE or cascade.backoffLimit=N'
complete -c kpreempt -n $cascade -l upstream -x -k -a '(__kpreempt_upstream)' -d 'upstream release line POLICY=VERSION'
complete -c kpreempt -n $cascade -s o -l output -x -a 'text json yaml html' -d 'output format'
complete -c kpreempt -n $cascade -l fail-on -x -a "loop 'evictions>'" -d 'exit 1 on a loop or more than N evictions'

# advise
set -l advise '__fish_seen_subcommand_from advise'
complete -c kpreempt -n $advise -l victim -x -k -a '(__kpreempt_names victims)' -d 'a running pod to save'
complete -c kpreempt -n $advise -l pod -x -k -a '(__kpreempt_names pods)' -d 'a pending pod to fit or place'
complete -c kpreempt -n $advise -l workload -x -k -a '(__kpreempt_names workloads)' -d 'a pending Kueue Workload to admit'
complete -c kpreempt -n $advise -l pod-file -r -F -d 'a manifest not in the dump'
complete -c kpreempt -n $advise -l goal -x -a 'save fit place admit' -d 'what is to hold'
complete -c kpreempt -n $advise -l policy -x -k -a '(__kpreempt_policies; echo all)' -d 'policy to run'
complete -c kpreempt -n $advise -l now -x -a '(date -u +%Y-%m-%dT%H:%M:%SZ)' -d 'evaluation time, RFC 3339'
complete -c kpreempt -n $advise -l set -x -d 'policy argument KEY=VALUE'
complete -c kpreempt -n $advise -l upstream -x -k -a '(__kpreempt_upstream)' -d 'upstream release line POLICY=VERSION'
complete -c kpreempt -n $advise -l limit -x -d 'suggestions per policy in text output'
complete -c kpreempt -n $advise -s o -l output -x -a 'text json yaml' -d 'output format'

# snapshot
complete -c kpreempt -n '__fish_seen_subcommand_from snapshot' -s o -l output -r -F -d 'snapshot file to write'

# completion
complete -c kpreempt -n '__fish_seen_subcommand_from completion' -x -a 'bash zsh fish'

complete -c kubectl-kpreempt -w kpreempt
