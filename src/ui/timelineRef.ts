/** The timeline's <svg>, for the export buttons (there is one timeline on the page). */
export const timelineSvg: { current: SVGSVGElement | null } = { current: null };
