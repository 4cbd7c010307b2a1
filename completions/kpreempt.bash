# bash completion for kpreempt                                   -*- shell-script -*-
# SPDX-License-Identifier: Apache-2.0
# Installed as bash-completion/completions/kpreempt; or load it by hand with
#   source <(kpreempt completion bash)
# Policy names come from the binary, and Pod and Workload names for --pod, --victim and
# --workload from the dumps given with -f on the same line (through `kpreempt __complete`).
# Names read that way are never handed to compgen -W, which would expand $(...) in them.

_kpreempt_commands="explain lint check matrix diff cascade advise snapshot completion"

# The options of a subcommand; the ones that take a value end with "=" (removed before use).
_kpreempt_options() {
    case $1 in
        explain)
            echo "-f= --filename= -R --recursive --pod= --workload= --pod-file= --all-pending --sequential" \
                "--victim= --policy= --now= --set= --upstream= -o= --output= --color= -v" \
                "--verbose --codes --cache --no-cache -h --help" ;;
        lint)
            echo "-f= --filename= -R --recursive --exclude= --allow-empty --baseline=" \
                "--enable= --disable= --only= --fail-on= --kube-version=" \
                "--autoscaler-cutoff= --policy= -o= --output= -h --help" ;;
        check) echo "-o= --output= --allow-outside -h --help" ;;
        matrix)
            echo "-f= --filename= -R --recursive --system-classes -o= --output= --cache" \
                "--no-cache -h --help" ;;
        diff)
            echo "-f= --filename= -R --recursive --base= --base-ref= --head= --pod-file=" \
                "--policy= --now= --set= --upstream= -o= --output= --fail-on= -h --help" ;;
        cascade)
            echo "-f= --filename= -R --recursive --pod-file= --all-pending --rounds= --policy=" \
                "--scheduler= --now= --set= --upstream= -o= --output= --fail-on= --cache" \
                "--no-cache -h --help" ;;
        advise)
            echo "-f= --filename= -R --recursive --victim= --pod= --pod-file= --workload= --goal= --policy=" \
                "--now= --set= --upstream= --limit= -o= --output= --cache --no-cache -h --help" ;;
        snapshot)
            echo "-f= --filename= -R --recursive -o= --output= -h --help" ;;
        completion) echo "-h --help" ;;
        *) echo "-h --help --version" ;;
    esac
}

# Values of the option $2 of subcommand $1; "@file" asks for file names, "@policies" for the
# policies of the binary (explain adds "all"), "@pods", "@victims" and "@workloads" for names
# read from the dumps.
_kpreempt_values() {
    case $2 in
        -f | --filename | --pod-file | --baseline | --base | --head) echo "@file" ;;
        --pod) echo "@pods" ;;
        --victim) echo "@victims" ;;
        --workload) echo "@workloads" ;;
        --policy) echo "@policies" ;;
        --upstream) echo "@upstream" ;;
        --color) echo "auto always never" ;;
        --goal) echo "save fit place admit" ;;
        --fail-on)
            case $1 in
                diff) echo "any outcome victims new-victims edges lint none" ;;
                cascade) echo "loop evictions>" ;;
                *) echo "error warning info never" ;;
            esac ;;
        --now) date -u +%Y-%m-%dT%H:%M:%SZ ;;
        -o | --output)
            case $1 in
                explain) echo "text wide json yaml html" ;;
                lint) echo "text json sarif github junit" ;;
                check) echo "text json junit" ;;
                matrix) echo "text json markdown" ;;
                diff) echo "text json yaml markdown github sarif html" ;;
                cascade) echo "text json yaml html" ;;
                advise) echo "text json yaml" ;;
                snapshot) echo "@file" ;;
            esac ;;
    esac
}

# "ns/name" lines from `kpreempt __complete $1` over the -f and -R options of the line.
_kpreempt_names() {
    local -a args=()
    local i w next
    for ((i = 2; i < ${#COMP_WORDS[@]}; i++)); do
        ((i == COMP_CWORD)) && continue
        w=${COMP_WORDS[i]}
        next=${COMP_WORDS[i + 1]-}
        case $w in
            -f | --filename)
                # COMP_WORDBREAKS splits --filename=x into three words.
                [[ $next == = ]] && ((i++)) && next=${COMP_WORDS[i + 1]-}
                ((i + 1 != COMP_CWORD)) && [[ -n $next ]] && args+=(-f "${next/#\~/$HOME}")
                ((i++)) ;;
            -f?*) args+=(-f "${w#-f}") ;;
            -R | --recursive) args+=(-R) ;;
        esac
    done
    ((${#args[@]})) || return 0
    "${COMP_WORDS[0]/#\~/$HOME}" __complete "$1" "${args[@]}" 2>/dev/null
}

# COMPREPLY from the lines on stdin that start with $1, compared as plain text and quoted
# for the command line: nothing in them is expanded, now or when the line runs.
_kpreempt_reply() {
    local line
    COMPREPLY=()
    while IFS= read -r line; do
        [[ -n $line && $line == "$1"* ]] && COMPREPLY+=("$(printf '%q' "$line")")
    done
}

_kpreempt() {
    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]-}
    local sub="" i opts values
    COMPREPLY=()
    # --option=value arrives as three words: --option, "=", value.
    if [[ $cur == = ]]; then
        cur=""
    elif [[ $prev == = ]]; then
        prev=${COMP_WORDS[COMP_CWORD - 2]-}
    fi
    for ((i = 1; i < COMP_CWORD; i++)); do
        if [[ ${COMP_WORDS[i]} != -* ]]; then
            sub=${COMP_WORDS[i]}
            break
        fi
    done
    if [[ -z $sub ]]; then
        if [[ $cur == -* ]]; then
            mapfile -t COMPREPLY < <(compgen -W "$(_kpreempt_options "")" -- "$cur")
        else
            mapfile -t COMPREPLY < <(compgen -W "$_kpreempt_commands" -- "$cur")
        fi
        return 0
    fi
    opts=$(_kpreempt_options "$sub")
    if [[ $prev == -* && " $opts " == *" $prev= "* ]]; then
        values=$(_kpreempt_values "$sub" "$prev")
        case $values in
            @file)
                compopt -o filenames 2>/dev/null
                mapfile -t COMPREPLY < <(compgen -f -- "$cur") ;;
            @policies)
                _kpreempt_reply "$cur" < <("${COMP_WORDS[0]/#\~/$HOME}" __complete policies \
                    2>/dev/null; [[ $sub == explain ]] && echo all) ;;
            @upstream)
                _kpreempt_reply "$cur" < <("${COMP_WORDS[0]/#\~/$HOME}" __complete upstream \
                    2>/dev/null) ;;
            @pods | @victims | @workloads)
                compopt -o nosort 2>/dev/null
                _kpreempt_reply "$cur" < <(_kpreempt_names "${values#@}") ;;
            *) mapfile -t COMPREPLY < <(compgen -W "$values" -- "$cur") ;;
        esac
        return 0
    fi
    if [[ $cur == -* ]]; then
        mapfile -t COMPREPLY < <(compgen -W "${opts//=/}" -- "$cur")
        return 0
    fi
    case $sub in
        completion) mapfile -t COMPREPLY < <(compgen -W "bash zsh fish" -- "$cur") ;;
        lint) mapfile -t COMPREPLY < <(compgen -W "priorityclasses queues" -- "$cur") ;;
        check)
            compopt -o filenames 2>/dev/null
            mapfile -t COMPREPLY < <(compgen -f -- "$cur") ;;
        *) mapfile -t COMPREPLY < <(compgen -W "${opts//=/}" -- "$cur") ;;
    esac
    return 0
}

complete -F _kpreempt kpreempt kubectl-kpreempt
