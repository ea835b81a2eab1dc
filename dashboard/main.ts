import './components/app.ts';

/**
 * The dashboard's entry: the shell (`dash-app`) routes and loads each screen when it is first shown. The page's own
 * margin goes through the CSSOM: the strict policy allows no inline style and the page loads no stylesheet.
 */
document.body.style.margin = '0';
