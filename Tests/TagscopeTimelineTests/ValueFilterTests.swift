import AnalyticsHub
import Foundation
import TagscopeRecording
import XCTest

@testable import TagscopeTimeline

/// Filter terms on values: `prop.NAME` (a tag property) and `param.NAME` (a parameter of any call
/// in any provider output) with `:`, `~`, `>`, `>=`, `<`, `<=`.
final class ValueFilterTests: XCTestCase {
  private let cart = Record(
    seq: 1, time: Date(timeIntervalSince1970: 0), kind: RecordKind(rawValue: "userAction"), name: "addToCart",
    properties: [
      "sku": "A-1", "title": "Welcome to Night Vale", "price": 12, "weight": 2.5, "gift": true,
      "coupon": nil, "tags": ["news", "comedy"], "product": ["sku": "B-2", "stock": 3],
      "code": "10",
    ],
    outputs: [
      ProviderOutput(
        provider: "firebase", status: .sent,
        calls: [
          CallDescription(
            method: "logEvent", name: "add_to_cart", parameters: ["value": 12.5, "currency": "EUR"])
        ]),
      ProviderOutput(
        provider: "amplitude", status: .sent,
        calls: [
          CallDescription(method: "identify", parameters: [:]),
          CallDescription(
            method: "track", name: "Add To Cart", parameters: ["item_id": "A-1", "quantity": 2]),
        ]),
    ])

  private func parsed(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> Filter? {
    switch Filter.parse(text) {
    case .success(let filter): return filter
    case .failure(let error):
      XCTFail("\(text): \(error.message)", file: file, line: line)
      return nil
    }
  }

  private func accepts(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> Bool {
    guard let filter = parsed(text, file: file, line: line) else { return false }
    XCTAssertTrue(filter.checksRecords, "\(text) is checked on the records", file: file, line: line)
    XCTAssertFalse(filter.isEmpty, file: file, line: line)
    return filter.acceptsRecord(cart)
  }

  private func error(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> String {
    guard case .failure(let error) = Filter.parse(text) else {
      XCTFail("\(text) accepted", file: file, line: line)
      return ""
    }
    return error.message
  }

  func testParsingTheOperators() {
    XCTAssertEqual(
      parsed("prop.sku:A-1")?.values, [ValueTerm(scope: .property, name: "sku", test: .equals("A-1"))])
    XCTAssertEqual(
      parsed("param.value>10")?.values,
      [ValueTerm(scope: .parameter, name: "value", test: .compare(.greater, "10"))])
    XCTAssertEqual(parsed("param.value>=10")?.values.first?.test, .compare(.greaterOrEqual, "10"))
    XCTAssertEqual(parsed("param.value<-1.5")?.values.first?.test, .compare(.less, "-1.5"))
    XCTAssertEqual(parsed("param.value<=1e3")?.values.first?.test, .compare(.lessOrEqual, "1e3"))
    XCTAssertEqual(parsed("prop.title~Night")?.values.first?.test, .pattern(.substring("night")))
    XCTAssertEqual(parsed("prop.title~/^Wel/")?.values.first?.test, .pattern(.regex("^Wel")))
    XCTAssertEqual(
      parsed("Prop.Title:\"Night Vale\"")?.values,
      [ValueTerm(scope: .property, name: "Title", test: .equals("Night Vale"))],
      "the prefix any case, quotes as in every term")
    XCTAssertEqual(parsed("prop.url:http://x")?.values.first?.test, .equals("http://x"), "the first operator")
    XCTAssertEqual(parsed("prop.product.sku:B-2")?.values.first?.name, "product.sku")
    let both = parsed("name:addToCart prop.sku:A-1 param.quantity>1")
    XCTAssertEqual(both?.values.count, 2)
    XCTAssertEqual(both?.timeline.names, [.exact("addToCart")], "the index's terms stay the index's")
  }

  func testErrorsNameTheTerm() {
    XCTAssertEqual(error("prop."), "prop. needs a name and a value (prop.sku:A-1)")
    XCTAssertEqual(error("param."), "param. needs a name and a value (param.value>10)")
    XCTAssertEqual(error("prop.:A-1"), "prop. needs a name before : (prop.sku:A-1)")
    XCTAssertEqual(
      error("prop.sku"), "prop.sku needs an operator and a value (:, ~, >, >=, <, <=: prop.sku:A-1)")
    XCTAssertEqual(error("prop.sku:"), "prop.sku: needs a value")
    XCTAssertEqual(error("param.value>="), "param.value>= needs a value")
    XCTAssertEqual(error("param.x>abc"), "param.x>abc: \"abc\" is not a number (> compares numbers)")
    XCTAssertEqual(error("param.x<=0x10"), "param.x<=0x10: \"0x10\" is not a number (<= compares numbers)")
    XCTAssertEqual(error("prop.x>nan"), "prop.x>nan: \"nan\" is not a number (> compares numbers)")
    XCTAssertTrue(error("prop.title~/(/").hasPrefix("invalid regular expression '('"))
    XCTAssertTrue(error("props.sku:A-1").contains("prop.NAME, param.NAME"), "the unknown key lists them")
  }

  func testStringsAnyCaseAndExact() {
    XCTAssertTrue(accepts("prop.sku:A-1"))
    XCTAssertTrue(accepts("prop.sku:a-1"), "any case, as every `:`")
    XCTAssertTrue(accepts("prop.SKU:A-1"), "the name any case")
    XCTAssertFalse(accepts("prop.sku:A"), "`:` is the whole value")
    XCTAssertFalse(accepts("prop.sku:A-2"))
    XCTAssertTrue(accepts("prop.title:\"Welcome to Night Vale\""))
    XCTAssertTrue(accepts("prop.code:10"), "a string equal to the text")
    XCTAssertFalse(accepts("prop.code:10.0"), "a string is not compared as a number")
  }

  func testNumbers() {
    XCTAssertTrue(accepts("prop.price:12"))
    XCTAssertTrue(accepts("prop.price:12.0"), "number equal")
    XCTAssertTrue(accepts("prop.weight:2.5"))
    XCTAssertFalse(accepts("prop.price:13"))
    XCTAssertTrue(accepts("prop.price>11"))
    XCTAssertFalse(accepts("prop.price>12"))
    XCTAssertTrue(accepts("prop.price>=12"))
    XCTAssertTrue(accepts("prop.price<12.5"))
    XCTAssertTrue(accepts("prop.price<=12"))
    XCTAssertFalse(accepts("prop.price<12"))
    XCTAssertTrue(accepts("prop.weight>2.25"))
    XCTAssertTrue(accepts("prop.weight<3"))
    XCTAssertTrue(accepts("prop.price>-1e1"))
  }

  func testBooleansAndNull() {
    XCTAssertTrue(accepts("prop.gift:true"))
    XCTAssertTrue(accepts("prop.gift:TRUE"))
    XCTAssertFalse(accepts("prop.gift:false"))
    XCTAssertFalse(accepts("prop.gift:1"), "a boolean is no number")
    XCTAssertTrue(accepts("prop.coupon:null"))
    XCTAssertFalse(accepts("prop.sku:null"))
  }

  func testPatternsOnTheValuesText() {
    XCTAssertTrue(accepts("prop.title~night"), "a part, any case")
    XCTAssertTrue(accepts("prop.title~\"night vale\""))
    XCTAssertFalse(accepts("prop.title~day"))
    XCTAssertTrue(accepts("prop.title~/Vale$/"), "the linear-time pattern subset")
    XCTAssertFalse(accepts("prop.title~/^Night/"))
    XCTAssertTrue(accepts("prop.sku~/^[A-Z]-[0-9]+$/"))
    XCTAssertTrue(accepts("prop.price~/^1[0-9]$/"), "a number's text")
    XCTAssertTrue(accepts("prop.gift~tru"), "a boolean's text")
  }

  func testComparisonsOnNonNumbersNeverMatch() {
    XCTAssertFalse(accepts("prop.sku>0"))
    XCTAssertFalse(accepts("prop.sku<0"))
    XCTAssertFalse(accepts("prop.code>1"), "a string of digits is not a number")
    XCTAssertFalse(accepts("prop.gift>0"))
    XCTAssertFalse(accepts("prop.coupon<1"))
    XCTAssertFalse(accepts("prop.product>0"))
  }

  func testAMissingPropertyMatchesNothing() {
    XCTAssertFalse(accepts("prop.colour:red"))
    XCTAssertFalse(accepts("prop.colour~r"))
    XCTAssertFalse(accepts("prop.colour>0"))
    XCTAssertFalse(accepts("prop.value>10"), "a call parameter is no tag property")
    XCTAssertFalse(accepts("param.sku:A-1"), "a tag property is no call parameter")
  }

  func testArraysAndNestedNames() {
    XCTAssertTrue(accepts("prop.tags:comedy"), "an array matches when an element does")
    XCTAssertFalse(accepts("prop.tags:drama"))
    XCTAssertTrue(accepts("prop.product.sku:B-2"), "a dotted name goes into the object")
    XCTAssertTrue(accepts("prop.product.stock>2"))
    XCTAssertFalse(accepts("prop.product.sku:A-1"))
    XCTAssertFalse(accepts("prop.product.colour:red"))
    var dotted = cart
    dotted.properties["page.name"] = "cart"
    guard let filter = parsed("prop.page.name:cart") else { return }
    XCTAssertTrue(filter.acceptsRecord(dotted), "a key with a dot is found whole")
  }

  func testParametersAcrossProvidersAndCalls() {
    XCTAssertTrue(accepts("param.value>10"), "firebase's call")
    XCTAssertTrue(accepts("param.value:12.5"))
    XCTAssertFalse(accepts("param.value>13"))
    XCTAssertTrue(accepts("param.currency:eur"))
    XCTAssertTrue(accepts("param.item_id:A-1"), "amplitude's second call")
    XCTAssertTrue(accepts("param.quantity>=2"))
    XCTAssertTrue(accepts("param.currency:EUR param.item_id~/^A-/"), "each term may match another provider")
    XCTAssertFalse(accepts("param.missing:x"))
    var silent = cart
    silent.outputs = []
    guard let filter = parsed("param.value>10") else { return }
    XCTAssertFalse(filter.acceptsRecord(silent), "no output, no parameter")
  }

  func testTermsCombineWithAnd() {
    XCTAssertTrue(accepts("prop.sku:A-1 prop.price>10 param.value<20"))
    XCTAssertFalse(accepts("prop.sku:A-1 prop.price>20"))
    guard let filter = parsed("prop.sku:A-1 call:track") else { return }
    XCTAssertTrue(filter.acceptsRecord(cart))
    guard let other = parsed("prop.sku:A-1 call:purchase") else { return }
    XCTAssertFalse(other.acceptsRecord(cart), "AND with the other record terms")
  }
}
