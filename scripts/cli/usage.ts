/** `run`'s usage, also part of the CLI's own (scripts/hopscope.ts) without loading the command. */
export const RUN_USAGE = `usage: npm run hopscope -- run --method <direct|cot|kg-rag|xr2|regram|bioweave|eigen1> --question "…"
         [--switches kg=0,param=0] [--options A=…,B=…] [--params name=value,…] [--kg-shuffle]
         [--document FILE] [--backend auto|offline|openai] [--json]`;
