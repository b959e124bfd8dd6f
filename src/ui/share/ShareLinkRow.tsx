/** The share link: what it carries (whole input, the selection's batch, the first problem's batch), its size shown before copying, and Copy. */
import { useEffect, useMemo, useState } from "react";
import { copyText } from "../common/download.ts";
import { defaultScope, LARGE_LINK_BYTES, shareScopes, type ScopeSelection, type ShareScope } from "./share-scope.ts";
import { shareUrlOf, type RedactChoice, type ShareSource } from "./share-link.ts";
import { settingsStore, shareBaseOf, type Settings } from "../state/settings.ts";
import { useStore } from "../state/store.ts";

const selectBase = (s: Settings) => shareBaseOf(s, location.href);

const kib = (n: number) => (n < 1024 ? `${n} B` : `${(n / 1024).toFixed(1)} KiB`);

/** A computed link for a scope key, so a stale one is never copied. */
interface Preview {
  readonly key: string;
  readonly url: string;
}

/** Props: the input, the selection, the redaction switches, and where the link's URL is reported for the report. */
export interface ShareLinkRowProps {
  readonly source: ShareSource;
  readonly selection: ScopeSelection | null;
  readonly redact: RedactChoice;
  readonly onLink: (url: string | null) => void;
}

/** The share link controls. */
export function ShareLinkRow({ source, selection, redact, onLink }: ShareLinkRowProps) {
  const scopes = useMemo(() => shareScopes(source.analysis, selection), [source.analysis, selection]);
  const [choice, setChoice] = useState<ShareScope["id"] | "auto">("auto");
  const [whole, setWhole] = useState<Preview | null>(null);
  const [preview, setPreview] = useState<Preview | null>(null);
  const [copied, setCopied] = useState<{ url: string; ok: boolean } | null>(null);
  const [error, setError] = useState("");
  // The settings' base address (a public copy of the page), else this page's own.
  const base = useStore(settingsStore, selectBase);
  const here = location.href.split("#")[0];
  const redactKey = redact ? `r${redact.userHeaders ? "h" : ""}${redact.ids ? "i" : ""}` : "plain";
  const wholeScope = scopes.find((s) => s.id === "whole");
  const wholeKey = wholeScope ? `${redactKey}:whole` : "";
  // An input read on demand is not read on open: its link (and the bytes it carries) is made when asked for.
  const [askedFor, setAskedFor] = useState<ShareSource | null>(null);
  const asked = source.bytes !== null || askedFor === source || choice !== "auto";

  // The whole input's link length (without a selection) decides the default; measured once per input and redaction.
  useEffect(() => {
    if (!wholeScope || !asked) return;
    let live = true;
    const timer = setTimeout(() => {
      shareUrlOf(source, { ...wholeScope, select: null }, redact, base).then(
        (url) => {
          if (live) setWhole({ key: wholeKey, url });
        },
        (e: Error) => live && setError(e.message),
      );
    }, 30);
    return () => {
      live = false;
      clearTimeout(timer);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [source, wholeKey, asked, base]);

  const wholeLength = whole && whole.key === wholeKey ? whole.url.length : null;
  const scope =
    (choice !== "auto" ? scopes.find((s) => s.id === choice) : undefined) ?? (wholeScope && wholeLength === null ? null : defaultScope(scopes, wholeLength));
  const key = scope ? `${redactKey}:${scope.id}:${scope.start}:${scope.end}:${scope.select?.start}:${scope.select?.end}` : "";

  useEffect(() => {
    if (!scope || !asked) return;
    let live = true;
    const timer = setTimeout(() => {
      shareUrlOf(source, scope, redact, base).then(
        (url) => {
          if (live) setPreview({ key, url });
        },
        (e: Error) => live && setError(e.message),
      );
    }, 30);
    return () => {
      live = false;
      clearTimeout(timer);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [source, key, asked, base]);

  const ready = preview && preview.key === key ? preview.url : null;
  useEffect(() => {
    onLink(ready);
  }, [ready, onLink]);

  const copy = async () => {
    if (!ready) return;
    // The address bar takes the link only when it is this page's own: another base is another site.
    if (base === here) history.replaceState(null, "", ready.slice(ready.indexOf("#")));
    setCopied({ url: ready, ok: await copyText(ready) });
  };
  const shownCopy = copied && copied.url === ready ? copied : null;

  return (
    <>
      <div className="share-row">
        <label>
          Share{" "}
          <select
            aria-label="What the link carries"
            value={choice === "auto" ? (scope?.id ?? "auto") : choice}
            onChange={(e) => {
              setChoice(e.target.value as ShareScope["id"]);
              setCopied(null);
            }}
          >
            {scopes.map((s) => (
              <option key={s.id} value={s.id}>
                {s.label}
              </option>
            ))}
          </select>
        </label>
      </div>
      <div className="share-row">
        {!asked && (
          <button type="button" onClick={() => setAskedFor(source)}>
            Make share link
          </button>
        )}
        <button type="button" disabled={!ready} onClick={() => void copy()}>
          Copy share link
        </button>
        <span className="link-size" data-testid="link-size" aria-live="polite">
          {!asked
            ? "Link: made when asked for (it reads the part it carries from the file)"
            : ready
              ? `Link: ${kib(ready.length)}${scope && scope.id !== "whole" ? ` (${scope.partName} only)` : ""}${shownCopy ? (shownCopy.ok ? ", copied" : ", select and copy it below") : ""}`
              : error
                ? ""
                : "Link: measuring…"}
        </span>
      </div>
      {ready && ready.length > LARGE_LINK_BYTES && (
        <p className="note">
          This link is {kib(ready.length)}, too long for most trackers (GitHub takes 65,536 characters): share a part
          {scopes.length > 1 ? ` (the smallest: ${scopes[scopes.length - 1]!.label})` : ""}, or attach the file.
        </p>
      )}
      <p className="note" data-testid="link-base">
        Opens at {base}
        {base === here ? " (this page: set a public address in Settings for links others open)" : ""}
      </p>
      {scope && scope.id !== "whole" && (
        <p className="note">A part drops what compares batches with earlier ones (offset-discontinuity, timestamp-regression).</p>
      )}
      {error && (
        <p className="note" role="alert">
          {error}
        </p>
      )}
      {shownCopy && !shownCopy.ok && <input className="link-text" readOnly value={shownCopy.url} aria-label="Share link" onFocus={(e) => e.target.select()} />}
    </>
  );
}
