/**
 * The Lucene translation of array, date and map-key fields, in the words ClickStack's `CustomSchemaSQLSerializerV2`
 * writes them (the golden search tests prove the rows on ClickHouse; these pin the statements).
 */
import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LuceneError, luceneToSql } from '../../../src/render';

const COLUMNS = {
  Timestamp: 'DateTime64(9)',
  TimestampTime: 'DateTime',
  Duration: 'UInt64',
  SpanName: 'LowCardinality(String)',
  LogAttributes: 'Map(LowCardinality(String), String)',
  'Events.Name': 'Array(LowCardinality(String))',
  'Events.Attributes': 'Array(Map(LowCardinality(String), String))',
  'Exemplars.Value': 'Array(Float64)',
};

const sql = (q: string): string => luceneToSql(q, { columns: COLUMNS, implicitColumnExpression: 'SpanName' });

describe('Lucene: arrays, dates and map keys as ClickStack translates them', () => {
  it('searches array elements: containing (arrayExists … ILIKE), equal (has), by value for numbers', () => {
    assert.equal(sql('Events.Name:exception'), "(arrayExists(el -> el ILIKE '%exception%', `Events.Name`))");
    assert.equal(sql('Events.Name:"exception"'), "(has(`Events.Name`, 'exception'))");
    assert.equal(sql('-Events.Name:"exception"'), "(NOT has(`Events.Name`, 'exception'))");
    assert.equal(sql('Exemplars.Value:1.5'), "(has(`Exemplars.Value`, CAST('1.5', 'Float64')))");
    assert.equal(sql('Events.Name:*'), '(notEmpty(`Events.Name`) = 1)');
  });

  it('searches arrays of maps by the key after the column', () => {
    assert.equal(
      sql('Events.Attributes.exception.type:*'),
      "(arrayExists(el -> notEmpty(toString(el['exception.type'])) = 1, `Events.Attributes`))",
    );
    assert.equal(
      sql('Events.Attributes.exception.type:"java.lang.IllegalStateException"'),
      "(arrayExists(el -> el['exception.type'] = 'java.lang.IllegalStateException', `Events.Attributes`))",
    );
    assert.throws(() => sql('Events.Attributes:exception'), LuceneError);
    assert.throws(() => sql('Events.Name:[a TO b]'), /not supported for Array-type fields/);
  });

  it('compares dates and times as numbers', () => {
    assert.equal(sql('TimestampTime:1772446530'), "((`TimestampTime` = CAST('1772446530', 'Float64')))");
    assert.equal(sql('Timestamp:>=1772446530'), "((Timestamp >= '1772446530'))");
    assert.equal(sql('TimestampTime:[1 TO 2]'), '((TimestampTime BETWEEN 1 AND 2))');
    assert.equal(sql('Duration:*'), '((`Duration` IS NOT NULL))');
  });

  it('keeps a question mark in a map key as part of the key', () => {
    assert.equal(
      sql('LogAttributes.checkout.express?:true'),
      "((`LogAttributes`['checkout.express?'] ILIKE '%true%' AND indexHint(mapContains(`LogAttributes`, 'checkout.express?'))))",
    );
    assert.throws(() => sql('LogAttributes:true'), /cannot be searched whole/);
  });
});
