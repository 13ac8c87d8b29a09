"""The labelling page: the report's styles and transcripts, one cell at a time, driven by the keyboard.

The page holds no data of its own: it asks the local server for the state (``GET /api/state``)
and sends each answer at once (``POST /api/label``, ``POST /api/undo``), so a reload resumes
where the person was. Cell content arrives as HTML rendered and escaped by the server (the
report's :func:`~agent_evaluators.report.transcript.transcript_html`); everything else the script
writes goes through ``textContent``.

Keys: ``p`` pass, ``f`` fail, ``s`` skip, ``u`` undo, ``r`` the reason box (type, then Enter: the
reason goes with the next p / f / s; Escape leaves it).
"""

import json

from .html import CSS
from .text import esc

LABEL_CSS = """
#bar{display:flex;gap:18px;align-items:center;flex-wrap:wrap}#progress{font-size:18px;font-weight:700}
.keys kbd{border:1px solid #c5cad3;border-bottom-width:2px;border-radius:4px;padding:0 5px;background:#fff;
font-family:ui-monospace,monospace}
#answer[hidden]{display:none}
#answer{display:flex;gap:10px;align-items:center;flex-wrap:wrap}#answer button{font-size:14px;padding:4px 14px}
#reason{flex:1;min-width:240px;padding:4px 8px}#reason.ready{border-color:#145c2c}
#reveal{border-left:4px solid #5b7bd5}#reveal .agree{color:#145c2c;font-weight:700}
#reveal .disagree{color:#8a1c13;font-weight:700}#error{color:#8a1c13}
"""

SCRIPT = r"""
(function(){
  var token=document.body.getAttribute('data-token'),state=null,busy=false;
  var reason=document.getElementById('reason'),cellEl=document.getElementById('cell');
  function $(id){return document.getElementById(id);}
  function api(path,body){
    return fetch(path,{method:body?'POST':'GET',headers:{'Content-Type':'application/json','X-Label-Token':token},
      body:body?JSON.stringify(body):undefined}).then(function(r){return r.json().then(function(j){
        if(!r.ok){throw new Error(j.error||('HTTP '+r.status));}return j;});});
  }
  function say(el,text){el.textContent=text==null?'':String(text);}
  function reveal(last){
    var box=$('reveal');
    if(!last){box.hidden=true;return;}
    box.hidden=false;
    say($('rv-cell'),'#'+last.line_number+(last.row?' '+last.row:'')+' · '+last.evaluator);
    say($('rv-you'),last.label);
    say($('rv-judge'),last.judge+(last.score!=null?' (score '+last.score+(last.threshold!=null?', threshold '+
      last.threshold:'')+')':''));
    var same=$('rv-same');
    if(last.label==='skip'){say(same,'');same.className='';}
    else{var agree=last.label===last.judge;say(same,agree?'you agree':'you disagree');
      same.className=agree?'agree':'disagree';}
    say($('rv-reason'),last.judge_reason||'');
    say($('rv-yours'),last.reason||'');
  }
  function render(s){
    state=s;busy=false;
    say($('progress'),s.done+' / '+s.total);
    say($('annotator'),s.annotator);
    say($('in-all'),s.labelled_in_all);
    $('undo').disabled=!s.can_undo;
    reveal(s.last);
    reason.value='';reason.classList.remove('ready');
    if(s.cell){
      cellEl.innerHTML=s.cell.html;
      cellEl.setAttribute('data-line',s.cell.line_number);cellEl.setAttribute('data-evaluator',s.cell.evaluator);
      $('answer').hidden=false;$('finished').hidden=true;
      document.body.setAttribute('data-state','ready');
    }else{
      cellEl.innerHTML='';cellEl.removeAttribute('data-line');cellEl.removeAttribute('data-evaluator');
      $('answer').hidden=true;$('finished').hidden=false;
      document.body.setAttribute('data-state','done');
    }
  }
  function fail(e){
    busy=false;say($('error'),e.message);
    document.body.setAttribute('data-state',state&&state.cell?'ready':'done');
  }
  function send(path,body){
    if(busy){return;}
    busy=true;say($('error'),'');document.body.setAttribute('data-state','busy');
    api(path,body).then(render,fail);
  }
  function answer(label){
    if(!state||!state.cell){return;}
    send('/api/label',{line_number:state.cell.line_number,evaluator:state.cell.evaluator,label:label,
      reason:reason.value.trim()});
  }
  function undo(){if(state&&state.can_undo){send('/api/undo',{});}}
  reason.addEventListener('keydown',function(e){
    if(e.key==='Enter'){e.preventDefault();reason.blur();reason.classList.toggle('ready',!!reason.value.trim());}
    else if(e.key==='Escape'){reason.blur();}
  });
  document.addEventListener('keydown',function(e){
    if(e.target===reason||e.ctrlKey||e.metaKey||e.altKey){return;}
    var k=e.key.toLowerCase();
    if(k==='p'){answer('pass');}else if(k==='f'){answer('fail');}else if(k==='s'){answer('skip');}
    else if(k==='u'){undo();}else if(k==='r'){e.preventDefault();reason.focus();}
    else{return;}
    e.preventDefault();
  });
  ['pass','fail','skip'].forEach(function(l){$('b-'+l).addEventListener('click',function(){answer(l);});});
  $('undo').addEventListener('click',undo);
  api('/api/state').then(render,fail);
})();
"""


def label_page(run_name: str, token: str) -> str:
    """The page's HTML (the same for every cell; the script fills it from the server)."""
    keys = ("<span class=\"keys muted\"><kbd>p</kbd> pass · <kbd>f</kbd> fail · <kbd>s</kbd> skip · <kbd>u</kbd> undo · "
            "<kbd>r</kbd> reason (Enter keeps it for the next answer)</span>")
    body = (
        f'<section id="status"><div id="bar"><span id="progress">…</span><span>labelling as <b id="annotator"></b>'
        f'</span><span class="muted"><span id="in-all">0</span> cells of this run labelled by you in all</span>'
        f"{keys}</div><p id=\"error\"></p></section>"
        '<section id="reveal" hidden><h3>Your last answer</h3><dl class="kv"><dt>cell</dt><dd id="rv-cell"></dd>'
        '<dt>you said</dt><dd id="rv-you"></dd><dt>your reason</dt><dd id="rv-yours"></dd>'
        '<dt>the judge said</dt><dd id="rv-judge"></dd><dt></dt>'
        '<dd id="rv-same"></dd><dt>judge\'s reason</dt><dd id="rv-reason"></dd></dl></section>'
        '<section id="ask"><div id="answer"><button id="b-pass">pass (p)</button><button id="b-fail">fail (f)'
        '</button><button id="b-skip">skip (s)</button><input id="reason" type="text" placeholder="reason (optional; r)"'
        ' autocomplete="off"><button id="undo" disabled>undo (u)</button></div>'
        '<p id="finished" hidden>Every cell of this session is labelled. The labels are in labels.jsonl in the run '
        "folder; stop the server with Ctrl-C.</p><div id=\"cell\"></div></section>"
    )
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>agent-eval label: {esc(run_name)}</title><style>{CSS}{LABEL_CSS}</style></head>"
        f'<body data-token="{esc(token)}" data-state="loading"><header><h1>agent-eval label: {esc(run_name)}</h1>'
        "<p>The judge's verdict is shown after you answer.</p></header>"
        f"<main>{body}</main><script>{SCRIPT}</script></body></html>\n"
    )


def page_bytes(run_name: str, token: str) -> bytes:
    return label_page(run_name, token).encode("utf-8")


def json_bytes(value: object) -> bytes:
    return json.dumps(value, ensure_ascii=False, default=str).encode("utf-8")
