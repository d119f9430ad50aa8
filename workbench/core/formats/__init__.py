"""Readers and writers for the dataset formats the workbench opens.

`load_dataset` detects the format; the per-format readers are exported for callers that know.
Every malformed input raises one `FormatError` naming the file, the line and the field.
"""

from workbench.core.data import FormatError
from workbench.core.formats.auto import dataset_splits, load_dataset, read_qrels, split_overlap
from workbench.core.formats.beir import (
    read_beir,
    read_corpus_jsonl,
    read_qrels_tsv,
    read_queries_jsonl,
)
from workbench.core.formats.openvault import (
    read_contexts,
    read_memories,
    read_openvault,
    read_sillytavern_chat,
)
from workbench.core.formats.pi_memory import read_decisions
from workbench.core.formats.pi_memory_eval import read_eval_cases
from workbench.core.formats.pi_memory_injections import (
    InjectionLog,
    InjectionRecord,
    injection_queries,
    read_injections,
)
from workbench.core.formats.plain import read_documents, read_queries
from workbench.core.formats.trec import (
    format_trec_run,
    read_trec_qrels,
    read_trec_run,
    trec_order,
    write_trec_run,
)
from workbench.core.formats.vault import read_vault, read_vault_notes

__all__ = [
    "FormatError",
    "InjectionLog",
    "InjectionRecord",
    "dataset_splits",
    "format_trec_run",
    "injection_queries",
    "load_dataset",
    "read_beir",
    "read_contexts",
    "read_corpus_jsonl",
    "read_decisions",
    "read_documents",
    "read_eval_cases",
    "read_injections",
    "read_memories",
    "read_openvault",
    "read_qrels",
    "read_qrels_tsv",
    "read_queries",
    "read_queries_jsonl",
    "read_sillytavern_chat",
    "read_trec_qrels",
    "read_trec_run",
    "read_vault",
    "read_vault_notes",
    "split_overlap",
    "trec_order",
    "write_trec_run",
]
