/**
 * The baseline for the Sheets recalculation figures: the best a careful user gets from an IMPORTJSON-style
 * custom function. Each cell makes its own requests to GET /deliveries/daily with the API's own filters
 * (customer_id, department_id, item_id, from, to) at the largest page size, follows the cursor while has_more,
 * keeps no cache, and lets an HTTP error (a 429 included) show in its cell, as UrlFetchApp does by default.
 * Written as Apps Script source, loaded after Code.js in the same executions.
 */
export const NAIVE_FILLRATE_FILE = 'NaiveFillRate.js';

export const NAIVE_FILLRATE_SOURCE = `
/**
 * Fill rate of one customer (by id), optionally one department and one item, over from..to.
 * @customfunction
 */
function NAIVE_FILLRATE(customerId, from, to, departmentId, itemId) {
  var base = PropertiesService.getDocumentProperties().getProperty('LINEN_BASE_URL');
  var key = PropertiesService.getUserProperties().getProperty('LINEN_API_KEY');
  var query = ['customer_id=' + encodeURIComponent(customerId), 'from=' + from, 'to=' + to, 'limit=200'];
  if (departmentId) query.push('department_id=' + encodeURIComponent(departmentId));
  if (itemId) query.push('item_id=' + encodeURIComponent(itemId));
  var delivered = 0, par = 0, cursor = null;
  do {
    var url = base + '/deliveries/daily?' + query.join('&') + (cursor ? '&cursor=' + encodeURIComponent(cursor) : '');
    var body = JSON.parse(UrlFetchApp.fetch(url, { headers: { Authorization: 'Bearer ' + key } }).getContentText());
    body.data.forEach(function (row) {
      if (row.daily_par) { delivered += row.delivered_count; par += row.daily_par; }
    });
    cursor = body.pagination && body.pagination.has_more ? body.pagination.cursor : null;
  } while (cursor);
  return par ? Math.round((delivered / par) * 1000) / 1000 : '';
}
`;
