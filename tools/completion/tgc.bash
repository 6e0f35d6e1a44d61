# bash completion of tgc (installed as share/bash-completion/completions/tgc).
# The commands and each command's options are read from `tgc --help` and `tgc help
# COMMAND` of the tgc being completed, so that the completion follows the program.
_tgc_commands() {
    "$1" --help 2>/dev/null | sed -n '/^commands:/,/^$/s/^  \([a-z][a-z0-9]*\) .*/\1/p'
}

_tgc() {
    local cur prev tgc cmd i
    cur=${COMP_WORDS[COMP_CWORD]}
    prev=${COMP_WORDS[COMP_CWORD - 1]}
    tgc=${COMP_WORDS[0]}
    COMPREPLY=()
    cmd=
    for ((i = 1; i < COMP_CWORD; i++)); do
        case ${COMP_WORDS[i]} in
        -*) ;;
        *) cmd=${COMP_WORDS[i]}; break ;;
        esac
    done
    if [ -z "$cmd" ]; then
        COMPREPLY=($(compgen -W "$(_tgc_commands "$tgc") help --help --version" -- "$cur"))
        return
    fi
    if [ "$cmd" = help ]; then
        COMPREPLY=($(compgen -W "$(_tgc_commands "$tgc")" -- "$cur"))
        return
    fi
    case $prev in
    --method) COMPREPLY=($(compgen -W "none ma cp bfco es all" -- "$cur")); return ;;
    -O) COMPREPLY=($(compgen -W "none ma cp bfco es" -- "$cur")); return ;;
    --target) COMPREPLY=($(compgen -W "sim mpi openmpi mpich threads" -- "$cur")); return ;;
    --search-objective) COMPREPLY=($(compgen -W "plain pipelined" -- "$cur")); return ;;
    --algo) COMPREPLY=($(compgen -W "heft peft exact" -- "$cur")); return ;;
    esac
    case $cur in
    -*)
        local opts
        opts=$("$tgc" help "$cmd" 2>/dev/null |
            sed -n 's/^  \(-[A-Za-z0-9-]*\).*/\1/p; s/^  -[A-Za-z0-9], \(--[A-Za-z0-9-]*\).*/\1/p')
        COMPREPLY=($(compgen -W "$opts" -- "$cur"))
        return
        ;;
    esac
    if [ "$cmd" = import ] && [ "$prev" = import ]; then
        COMPREPLY=($(compgen -W "stg dot sdf3" -- "$cur"))
        return
    fi
    COMPREPLY=($(compgen -f -- "$cur"))
}
complete -o filenames -o bashdefault -F _tgc tgc
