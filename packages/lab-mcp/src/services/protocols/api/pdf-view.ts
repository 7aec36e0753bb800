// What a PDF of the repository holds (fact sheet §9: the view's options compact_view, only_materials,
// only_steps, only_commands): the whole protocol, the compact view, or one part alone. Every view is a
// download like any other, within the same PDF limit.

export interface PdfView {
  /** Leave out the description and guidelines. */
  compact: boolean;
  /** Only this part (after the title block). */
  only?: "materials" | "steps" | "commands";
}

export const FULL_PDF: PdfView = { compact: false };

/** The view as the query of /view/<uri>.pdf; the full view sends none. */
export function pdfQuery(view: PdfView): Record<string, number> {
  return {
    ...(view.compact ? { compact_view: 1 } : {}),
    ...(view.only ? { [`only_${view.only}`]: 1 } : {}),
  };
}

/** How a view reads in a sentence: "the steps only", "compact". */
export function pdfViewWords(view: PdfView): string {
  const part = view.only ? `the ${view.only} only` : "the whole protocol";
  return view.compact ? `${part}, compact` : part;
}

/** Added to the file name of a partial PDF, so that it never lands on the whole one: "-steps-compact". */
export function pdfViewSuffix(view: PdfView): string {
  return `${view.only ? `-${view.only}` : ""}${view.compact ? "-compact" : ""}`;
}
