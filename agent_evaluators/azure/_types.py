"""azure-ai-evaluation 1.18's configuration and data types, with 1.18's fields.

They are ``TypedDict``s, as in 1.18: plain dicts at run time, so code that builds
``AzureOpenAIModelConfiguration(azure_endpoint=..., azure_deployment=..., api_key=...)``
keeps working and the dict goes straight to any of our evaluators as ``model_config``.
``type`` is optional in both model configurations, and our judge client never needs it:
1.18 fails on an ``OpenAIModelConfiguration`` without ``type="openai"`` (its check of the
``model`` key iterates over the letters of the string); we do not copy that.
"""

import sys
from typing import Any, Dict, List, Literal, Optional, TypedDict, Union

if sys.version_info >= (3, 11):
    from typing import NotRequired
else:  # pydantic depends on typing_extensions
    from typing_extensions import NotRequired


class AzureOpenAIModelConfiguration(TypedDict):
    """An Azure OpenAI deployment as the judge (``api_version`` defaults to our client's GA version)."""

    type: NotRequired[Literal["azure_openai"]]
    azure_deployment: str
    azure_endpoint: str
    api_key: NotRequired[str]
    api_version: NotRequired[str]
    #: an Entra ID credential: any object with ``get_token(scope)``
    credential: NotRequired[Any]


class OpenAIModelConfiguration(TypedDict):
    """An OpenAI (or any OpenAI-compatible ``base_url``) model as the judge; ``type`` is not needed."""

    type: NotRequired[Literal["openai"]]
    api_key: str
    model: str
    base_url: NotRequired[str]
    organization: NotRequired[str]
    extra_headers: NotRequired[Dict[str, str]]


class AzureAIProject(TypedDict):
    """An Azure AI project. :func:`~agent_evaluators.azure.evaluate` accepts one and uploads nothing:
    results stay local (a warning says so once per call, and the result records it)."""

    subscription_id: str
    resource_group_name: str
    project_name: str


class EvaluatorConfig(TypedDict, total=False):
    """One alias's entry of ``evaluator_config``: ``{"column_mapping": {input: "${data.col}"}}``."""

    column_mapping: Dict[str, str]
    _evaluator_name: NotRequired[Optional[str]]
    _evaluator_version: NotRequired[Optional[str]]
    _evaluator_id: NotRequired[Optional[str]]
    _evaluator_definition: NotRequired[Optional[Any]]


class Message(TypedDict):
    """One message of a :class:`Conversation`."""

    role: str
    content: Union[str, List[Dict[str, Any]]]
    context: NotRequired[Dict[str, Any]]


class Conversation(TypedDict):
    """The ``conversation=`` input: messages (and an optional context), evaluated per turn."""

    messages: Union[List[Message], List[Dict[str, Any]]]
    context: NotRequired[Dict[str, Any]]


class EvaluationResult(TypedDict):
    """What :func:`~agent_evaluators.azure.evaluate` returns: 1.18's keys, plus ``agent_evaluators``
    (our run folder, error cells and the local-only note; see that function)."""

    metrics: Dict[str, Any]
    #: results of remote AOAI graders in 1.18; never set here (graders run in Azure's cloud only)
    oai_eval_run_ids: NotRequired[List[Dict[str, str]]]
    studio_url: NotRequired[Optional[str]]
    rows: List[Dict[str, Any]]
    #: 1.18's private AOAI-format results; declared for type checkers, never set here
    _evaluation_results_list: NotRequired[List[Dict[str, Any]]]
    _evaluation_summary: NotRequired[Dict[str, Any]]
    agent_evaluators: NotRequired[Dict[str, Any]]
